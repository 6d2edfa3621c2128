import type { FeedBookingRow, FeedCheckOutRow } from '../bookings/booking-feed.store';

/** An event of the feed, booking or check-out, as the cap compares them. */
interface Ranked {
  start: number;
  end: number;
  id: string;
}

/**
 * The feed's order, which decides what the cap keeps: what ends after `now` (happening or to
 * come) first, soonest start first; then what is over, latest start first. So past the cap
 * the farthest future and the oldest past are left out, never this week. The stores read each
 * list in this same order, so the first `max` of the two together are the first `max` here.
 */
export function feedOrder(now: Date): (a: Ranked, b: Ranked) => number {
  const at = now.getTime();
  return (a, b) => {
    const aCurrent = a.end > at;
    const bCurrent = b.end > at;
    if (aCurrent !== bCurrent) return aCurrent ? -1 : 1;
    const byStart = aCurrent ? a.start - b.start : b.start - a.start;
    if (byStart !== 0) return byStart;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/**
 * The first `max` events of both lists in the feed's order, split back into bookings and
 * check-outs, and whether any were left out.
 */
export function capFeed(
  bookings: FeedBookingRow[],
  checkOuts: FeedCheckOutRow[],
  now: Date,
  max: number,
): { bookings: FeedBookingRow[]; checkOuts: FeedCheckOutRow[]; truncated: boolean } {
  const ranked = [
    ...bookings.map((row) => ({
      start: row.starts_at.getTime(),
      end: row.ends_at.getTime(),
      id: row.id,
      booking: row,
    })),
    ...checkOuts.map((row) => ({
      start: row.due_at.getTime(),
      end: row.due_at.getTime(),
      id: `${row.asset_id}@${row.assigned_at.toISOString()}`,
      checkOut: row,
    })),
  ].sort(feedOrder(now));
  const kept = ranked.slice(0, max);
  return {
    bookings: kept.flatMap((event) => ('booking' in event ? [event.booking] : [])),
    checkOuts: kept.flatMap((event) => ('checkOut' in event ? [event.checkOut] : [])),
    truncated: ranked.length > max,
  };
}
