import type { Booking, BookingStatus } from '@custodian/console-client';
import { BOOKING_STATUSES as CONTRACT_BOOKING_STATUSES } from '@custodian/contracts/constants';

// The values the API accepts (the contract's own list), as a person reads them, and the pure
// rules of the booking screens: which buttons a booking shows, the conflicts a 409 names, and
// the datetime-local fields of the form.

export const BOOKING_STATUSES = CONTRACT_BOOKING_STATUSES satisfies readonly BookingStatus[];

export const BOOKING_STATUS_LABEL: Record<BookingStatus, string> = {
  requested: 'Requested',
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  checked_out: 'Checked out',
  completed: 'Completed',
  overdue: 'Overdue',
  no_show: 'No-show',
};

/** A booking's status as read: a cancelled booking a manager refused says "Rejected". */
export function statusLabel(booking: Pick<Booking, 'status' | 'cancellation'>): string {
  if (booking.status === 'cancelled' && booking.cancellation?.reason === 'rejected') {
    return 'Rejected';
  }
  return BOOKING_STATUS_LABEL[booking.status];
}

export function isBookingStatus(value: string | null): value is BookingStatus {
  return (BOOKING_STATUSES as readonly string[]).includes(value ?? '');
}

/** What the signed-in member may do with bookings (their permissions). */
export interface BookingRights {
  /** bookings.request: book, and change or cancel (the register refuses others' bookings). */
  request: boolean;
  /** bookings.manage: confirm, reject, hand out, take back. */
  manage: boolean;
}

export type BookingButton = 'confirm' | 'reject' | 'cancel' | 'check-out' | 'check-in' | 'edit';

/**
 * The buttons a booking shows, by its status and the member's rights. Members see Cancel and
 * Edit on every open booking: the register decides on the call whether it is theirs (403).
 */
export function bookingButtons(
  booking: Pick<Booking, 'status' | 'ends_at'>,
  rights: BookingRights,
  now = Date.now(),
): BookingButton[] {
  const ended = new Date(booking.ends_at).getTime() <= now;
  const buttons: BookingButton[] = [];
  switch (booking.status) {
    case 'requested':
      if (rights.manage && !ended) buttons.push('confirm', 'reject');
      if (rights.request) buttons.push('cancel', 'edit');
      break;
    case 'confirmed':
      if (rights.manage && !ended) buttons.push('check-out');
      if (rights.request) buttons.push('cancel', 'edit');
      break;
    case 'checked_out':
    case 'overdue':
      if (rights.manage) buttons.push('check-in');
      if (rights.request) buttons.push('edit');
      break;
    case 'cancelled':
    case 'completed':
    case 'no_show':
      break;
  }
  return buttons;
}

/** The dates a booking may still move: both before its hand-out, only its end after. */
export function movableDates(status: BookingStatus): 'both' | 'end' | 'none' {
  if (status === 'requested' || status === 'confirmed') return 'both';
  if (status === 'checked_out' || status === 'overdue') return 'end';
  return 'none';
}

/** One booking in the way, as a 409 of the register names it. */
export interface BookingConflict {
  assetName: string;
  assetId: string;
  from: string;
  to: string;
  bookingId: string;
}

const CONFLICT =
  /(.+?) \((ast_[0-9a-z]+)\) is booked from (\S+) to (\S+) by booking (bkg_[0-9a-z]+)/;

/**
 * The conflicts of a 409's message ("The booking overlaps: Camera (ast_…) is booked from … to
 * … by booking bkg_…; …; and 3 more"), how many more it did not name, and what the message said
 * before them ("Booking bkg_… cannot be checked out before its start", for an early hand-out),
 * empty for a new booking. No conflicts when the message is another 409 (an asset checked out
 * until after the start, a booking just changed).
 */
export function parseConflicts(message: string): {
  lead: string;
  conflicts: BookingConflict[];
  more: number;
} {
  const marker = 'The booking overlaps: ';
  const at = message.indexOf(marker);
  if (at === -1) return { lead: '', conflicts: [], more: 0 };
  const lead = message.slice(0, at).trim().replace(/:$/, '');
  const conflicts: BookingConflict[] = [];
  let more = 0;
  for (const part of message.slice(at + marker.length).split('; ')) {
    const andMore = /^and (\d+) more$/.exec(part);
    if (andMore) {
      more = Number(andMore[1]);
      continue;
    }
    const [, assetName, assetId, from, to, bookingId] = CONFLICT.exec(part) ?? [];
    if (assetName && assetId && from && to && bookingId) {
      conflicts.push({ assetName, assetId, from, to, bookingId });
    }
  }
  return { lead, conflicts, more };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local field shows it: the reader's time, to the minute. */
export function toLocalInput(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A datetime-local field's value (the reader's time) as the instant the API takes; null if empty. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** What the new-booking form holds, as typed. */
export interface BookingForm {
  personId: string;
  assetIds: string[];
  startsAt: string;
  endsAt: string;
  notes: string;
}

/** The form's problems, by field, before anything is sent; empty when it may be sent. */
export function bookingFormErrors(form: BookingForm): Partial<Record<keyof BookingForm, string>> {
  const errors: Partial<Record<keyof BookingForm, string>> = {};
  if (!form.personId) errors.personId = 'Choose who the assets are for.';
  if (form.assetIds.length === 0) errors.assetIds = 'Choose at least one asset.';
  const starts = fromLocalInput(form.startsAt);
  const ends = fromLocalInput(form.endsAt);
  if (!starts) errors.startsAt = 'Give the start, date and time.';
  if (!ends) errors.endsAt = 'Give the end, date and time.';
  if (starts && ends && ends <= starts) errors.endsAt = 'The end must be after the start.';
  return errors;
}

/** The instants a new booking defaults to: the next full hour, for an hour. */
export function defaultRange(now = new Date()): { startsAt: string; endsAt: string } {
  const start = new Date(now);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  const end = new Date(start);
  end.setHours(end.getHours() + 1);
  return { startsAt: toLocalInput(start), endsAt: toLocalInput(end) };
}
