import type { BookingStatus } from '../bookings/booking.constants';
import { ContractSchema } from '../fields/contract-schema.decorator';
import { Field, TextField, TimestampField } from '../fields/field.decorators';

/** The signed-in member's calendar feed in the session's workspace, without its URL. */
@ContractSchema({
  name: 'CalendarFeed',
  examples: [
    {
      active: true,
      created_at: '2026-11-28T10:00:00.000Z',
      last_used_at: '2026-11-29T07:12:40.000Z',
    },
  ],
})
export class CalendarFeed {
  @Field({ type: 'boolean' }, [], {
    description: 'Whether the member has a feed URL; false before one is made, or once revoked.',
  })
  active!: boolean;

  @TimestampField({
    nullable: true,
    description: 'When the current URL was made (a new URL resets it); null without a feed.',
  })
  created_at!: string | null;

  @TimestampField({
    nullable: true,
    description: 'When a calendar app last fetched it, to the minute; null if never.',
  })
  last_used_at!: string | null;
}

@ContractSchema({
  name: 'IssuedCalendarFeed',
  description: 'A new feed URL: shown this once, since only a hash of its token is kept.',
})
export class IssuedCalendarFeed extends CalendarFeed {
  @TextField({
    description:
      'The URL a calendar app subscribes to (`…/calendar/<token>.ics`). Anyone holding it reads ' +
      'the workspace’s bookings until it is regenerated or revoked.',
  })
  url!: string;
}

/** Whose feed a token opens (admin queue): the gateway then asks for that workspace's events. */
export interface CalendarFeedOwner {
  workspace_id: string;
  member_id: string;
}

/** A booking as the feed shows it. */
export interface CalendarFeedBooking {
  id: string;
  status: BookingStatus;
  starts_at: string;
  ends_at: string;
  person_name: string;
  assets: Array<{ name: string; asset_tag: string }>;
  notes: string | null;
  completed_at: string | null;
  updated_at: string;
}

/** A check-out made by hand (not a booking's) with a due date: one event at that date. */
export interface CalendarFeedCheckOut {
  asset_id: string;
  asset_name: string;
  asset_tag: string;
  person_name: string;
  /** When it was checked out: with the asset, it names this check-out (the event's UID). */
  assigned_at: string;
  due_at: string;
}

/** What a feed shows: the workspace's events in the window, CALENDAR_FEED_EVENTS_MAX at most. */
export interface CalendarFeedEvents {
  /** PUBLIC_BASE_URL of the register: the console's links and the events' UIDs are under it. */
  base_url: string;
  /** The window the events overlap. */
  from: string;
  to: string;
  bookings: CalendarFeedBooking[];
  check_outs: CalendarFeedCheckOut[];
  /** True when more events overlapped the window than the feed carries. */
  truncated: boolean;
}
