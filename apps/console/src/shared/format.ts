// How the console writes dates, rates and durations. Pure, so the tests pin them.

/** A timestamp in the reader's locale and time zone; `empty` when there is none. */
export function formatDateTime(
  iso: string | null,
  empty = '—',
  locale?: string,
  timeZone?: string,
): string {
  if (!iso) return empty;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(date);
}

/** A day in the reader's locale; `empty` when there is none. */
export function formatDate(iso: string | null, empty = '—', locale?: string): string {
  if (!iso) return empty;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

/**
 * A 0..1 rate as a percentage with one decimal, never rounded up to 100% (99.96% of deliveries
 * succeeding is not all of them); `—` when there was nothing to count.
 */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const tenths = Math.floor(rate * 1000 + 1e-9);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}%`;
}

/** A duration in milliseconds, in ms below a second and in seconds above. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A JSON value as indented text, as it was sent. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? '';
}

/** "1 delivery", "3 deliveries". */
export function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** "40 of 100,000 (0%)": a background job's progress (an audit's, an import's). */
export function progressText(progress: { done: number; total: number }): string {
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  return `${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')} (${percent}%)`;
}
