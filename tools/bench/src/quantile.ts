/** The value at quantile `q` (0..1) of the ascending `sorted`; NaN when it is empty. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}
