import {
  CALENDAR_FEED_EVENTS_MAX,
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  type BookingStatus,
  type CalendarFeedBooking,
  type CalendarFeedCheckOut,
  type CalendarFeedEvents,
} from '@custodian/contracts';
import ical, { ICalEventStatus } from 'ical-generator';

/** How many asset names a booking's title spells out before "+N more". */
const NAMED_ASSETS = 3;

/** Asked of calendar apps between fetches (REFRESH-INTERVAL); most poll at their own pace. */
const REFRESH_SECONDS = 15 * 60;

const STATUS_WORDS: Record<BookingStatus, string> = {
  requested: 'requested',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
  checked_out: 'checked out',
  completed: 'returned',
  overdue: 'overdue',
  no_show: 'no-show',
};

/**
 * A calendar feed as iCalendar text (RFC 5545): ical-generator folds the lines and escapes the
 * text, which workspace data (names, notes) can fill with anything. Every time is UTC. A UID
 * is stable across fetches and regenerated URLs (the booking's id, or the asset and the start
 * of its check-out, at the deployment's host), so a calendar app updates an event in place
 * rather than adding it again.
 */
export function renderCalendarFeed(
  events: CalendarFeedEvents,
  workspaceName: string,
  now: Date,
): string {
  const host = new URL(events.base_url).host;
  const workspace = oneLine(workspaceName);
  const calendar = ical({
    name: `${workspace}: bookings`,
    description:
      `Bookings and due dates of ${workspace} in Custodian, from ${CALENDAR_FEED_PAST_DAYS} ` +
      `days back to ${CALENDAR_FEED_FUTURE_DAYS} days ahead` +
      (events.truncated
        ? ` (the first ${CALENDAR_FEED_EVENTS_MAX.toLocaleString('en-US')} only: the ` +
          'farthest ahead and the oldest are left out).'
        : '.'),
    prodId: { company: 'Custodian', product: 'Calendar feed', language: 'EN' },
    ttl: REFRESH_SECONDS,
  });
  for (const booking of events.bookings) {
    calendar.createEvent({
      id: `${booking.id}@${host}`,
      start: new Date(booking.starts_at),
      end: new Date(booking.ends_at),
      stamp: now,
      lastModified: new Date(booking.updated_at),
      summary: bookingTitle(booking),
      description: bookingDescription(booking, events.base_url),
      // A request waits for a manager: it may not happen.
      status:
        booking.status === 'requested' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
      url: `${events.base_url}/console/bookings/${booking.id}`,
    });
  }
  for (const checkOut of events.check_outs) {
    calendar.createEvent({
      id: checkOutUid(checkOut, host),
      // At the due time, with no length (RFC 5545: no DTEND ends it where it starts).
      start: new Date(checkOut.due_at),
      end: null,
      stamp: now,
      summary: `${assetLabel(checkOut.asset_name, checkOut.asset_tag)} due back from ${checkOut.person_name}`,
      description: [
        `Checked out to ${checkOut.person_name} on ${checkOut.assigned_at}, due back ${checkOut.due_at}.`,
        `Open in Custodian: ${events.base_url}/console/assets/${checkOut.asset_id}`,
      ].join('\n'),
      status: ICalEventStatus.CONFIRMED,
      url: `${events.base_url}/console/assets/${checkOut.asset_id}`,
    });
  }
  return calendar.toString();
}

/** "Camera, Tripod for Ada Lovelace (confirmed)"; past three assets, "+N more". */
export function bookingTitle(
  booking: Pick<CalendarFeedBooking, 'assets' | 'person_name' | 'status'>,
) {
  const names = booking.assets.slice(0, NAMED_ASSETS).map((asset) => asset.name);
  const more = booking.assets.length - names.length;
  const assets = more > 0 ? `${names.join(', ')} +${more} more` : names.join(', ');
  return `${assets} for ${booking.person_name} (${STATUS_WORDS[booking.status]})`;
}

function bookingDescription(booking: CalendarFeedBooking, baseUrl: string): string {
  return [
    `Status: ${STATUS_WORDS[booking.status]}`,
    `For: ${booking.person_name}`,
    `Assets: ${booking.assets.map((asset) => assetLabel(asset.name, asset.asset_tag)).join(', ')}`,
    ...(booking.completed_at ? [`Returned: ${booking.completed_at}`] : []),
    ...(booking.notes ? ['', booking.notes, ''] : []),
    `Open in Custodian: ${baseUrl}/console/bookings/${booking.id}`,
  ].join('\n');
}

/**
 * The calendar's name and description go out as they are (ical-generator escapes an event's
 * text, not these X-WR- lines): a line break in a workspace's name would start a line of its
 * own, so control characters become spaces.
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

function assetLabel(name: string, tag: string): string {
  return tag ? `${name} (${tag})` : name;
}

/** One check-out of one asset: a later check-out of the same asset is another event. */
function checkOutUid(checkOut: CalendarFeedCheckOut, host: string): string {
  return `checkout-${checkOut.asset_id}-${new Date(checkOut.assigned_at).getTime()}@${host}`;
}
