/**
 * A member's calendar feed (issue 32): the workspace's bookings, and the due dates of
 * check-outs made by hand, as an iCalendar document that calendar apps subscribe to.
 */

/** The feed covers events overlapping [now - PAST_DAYS, now + FUTURE_DAYS]. */
export const CALENDAR_FEED_PAST_DAYS = 30;
export const CALENDAR_FEED_FUTURE_DAYS = 180;

/**
 * The most events one feed carries. Past it, what is happening now and next is kept (by start,
 * soonest first), then the past (most recent first): the farthest ends of the window go.
 */
export const CALENDAR_FEED_EVENTS_MAX = 2_000;

/**
 * The booking statuses the feed lists. A completed booking is listed for COMPLETED_DAYS after
 * it completed; cancelled and no-show ones never are (they hold nothing).
 */
export const CALENDAR_FEED_BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'checked_out',
  'overdue',
  'completed',
] as const;
export const CALENDAR_FEED_COMPLETED_DAYS = 30;

/** A feed's last use is written at most this often, not on every fetch (ms). */
export const CALENDAR_FEED_LAST_USED_PRECISION_MS = 60_000;
