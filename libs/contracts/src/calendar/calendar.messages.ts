import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage } from '../rpc/messages';
import { MemberRefInput } from '../sign-in/sign-in.inputs';
import { CalendarFeedTokenInput } from './calendar.inputs';
import type {
  CalendarFeed,
  CalendarFeedEvents,
  CalendarFeedOwner,
  IssuedCalendarFeed,
} from './calendar.views';

/**
 * The feed's events, on the register's API queue (RegisterRpc): the caller is the workspace of
 * the member whose token was presented. A list (heavy lane): it grows with the workspace.
 */
export const CALENDAR_FEED_RPC = {
  calendarFeedEvents: rpc('calendar-feed.events', CallerMessage, reply<CalendarFeedEvents>(), LIST),
};

/**
 * A member's feed URL, on the register's admin queue (RegisterAdminRpc): the console's card
 * (`id` is the signed-in member of `workspace`), and the gateway's lookup of a presented token.
 */
export const CALENDAR_FEED_ADMIN_RPC = {
  calendarFeedGet: rpc('admin.calendar-feed.get', MemberRefInput, reply<CalendarFeed>(), READ),
  /** A new URL: the member's first, or one in place of the old, which stops working at once. */
  calendarFeedIssue: rpc('admin.calendar-feed.issue', MemberRefInput, reply<IssuedCalendarFeed>()),
  /** The URL stops working; revoking none is harmless. */
  calendarFeedRevoke: rpc('admin.calendar-feed.revoke', MemberRefInput, reply<CalendarFeed>()),
  /**
   * The feed's workspace and member; not_found for a token unknown, revoked, replaced, or of a
   * member no longer active. Marks the feed used (at most once a minute).
   */
  calendarFeedOpen: rpc(
    'admin.calendar-feed.open',
    CalendarFeedTokenInput,
    reply<CalendarFeedOwner>(),
  ),
};
