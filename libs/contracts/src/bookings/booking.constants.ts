/** Every state a booking passes through (the spec's booking.* events). */
export const BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'cancelled',
  'checked_out',
  'completed',
  'overdue',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * The states that hold the booking's assets for its range: a booking overlapping one of them
 * on any asset is refused (the database's exclusion constraint).
 */
export const ACTIVE_BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'checked_out',
  'overdue',
] as const satisfies readonly BookingStatus[];

/** Why a booking ended before it was handed out. */
export const BOOKING_CANCEL_REASONS = ['cancelled', 'rejected'] as const;
export type BookingCancelReason = (typeof BOOKING_CANCEL_REASONS)[number];

/**
 * How long after its start a confirmed booking waits to be checked out before it is a no-show
 * (`booking.no_show`, its assets freed): the default of the workspace setting
 * (`no_show_grace_minutes`), which goes up to a week.
 */
export const BOOKING_NO_SHOW_GRACE_MINUTES = 60;
export const BOOKING_NO_SHOW_GRACE_MINUTES_MAX = 7 * 24 * 60;

/** Assets one booking may hold. */
export const BOOKING_ASSETS_MAX = 50;
/** The longest range a booking may span (days): a year, a long loan at most. */
export const BOOKING_DAYS_MAX = 366;

export const BOOKING_PAGE_SIZE_DEFAULT = 50;
export const BOOKING_PAGE_SIZE_MAX = 200;
