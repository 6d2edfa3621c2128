/** The value at quantile `q` (0..1) of the ascending `sorted`; NaN when it is empty. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? NaN) + upper) / 2;
}

/**
 * Ratios against a reference as a table cell: the median change in per cent, and the middle
 * half of the changes in points, e.g. `+7.3% (+3..+13)`. Empty for no ratios.
 */
export function changeCell(ratios: number[]): string {
  if (ratios.length === 0) return '';
  const sorted = [...ratios].sort((a, b) => a - b);
  const signed = (value: number, text: string) => `${value >= 0 ? '+' : ''}${text}`;
  const percent = (ratio: number) => signed(ratio - 1, `${((ratio - 1) * 100).toFixed(1)}%`);
  const points = (ratio: number) => signed(ratio - 1, String(Math.round((ratio - 1) * 100)));
  return `${percent(median(sorted))} (${points(quantile(sorted, 0.25))}..${points(quantile(sorted, 0.75))})`;
}
