import type { ReminderUnit } from '@custodian/contracts';

const DAY_MS = 86_400_000;

/**
 * The `index`th occurrence of a repeat counted from `anchor` (0 is the anchor itself), in UTC:
 * days and weeks are fixed lengths; months keep the anchor's day of the month and time, or the
 * last day of a shorter month, so 31 January goes to 28 (29) February and back to 31 March.
 */
export function occurrenceAt(
  anchor: Date,
  repeat: { every: number; unit: ReminderUnit },
  index: number,
): Date {
  if (repeat.unit === 'day') return new Date(anchor.getTime() + index * repeat.every * DAY_MS);
  if (repeat.unit === 'week') return new Date(anchor.getTime() + index * repeat.every * 7 * DAY_MS);
  const months = anchor.getUTCMonth() + index * repeat.every;
  const year = anchor.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}
