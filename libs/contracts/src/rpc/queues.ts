import { ACTIVITY_ADMIN_RPC, ACTIVITY_CONSOLE_RPC } from '../activity/activity.messages';
import { ASSET_REQUEST_RPC } from '../asset-requests/asset-request.messages';
import { ASSET_RPC } from '../assets/asset.messages';
import { AUDIT_RPC } from '../audits/audit.messages';
import { BOOKING_RPC } from '../bookings/booking.messages';
import { CATEGORY_RPC } from '../categories/category.messages';
import { LOCATION_RPC } from '../locations/location.messages';
import { LICENSE_RPC } from '../licenses/license.messages';
import { MAINTENANCE_RPC } from '../maintenance/maintenance.messages';
import { CALENDAR_FEED_ADMIN_RPC, CALENDAR_FEED_RPC } from '../calendar/calendar.messages';
import { CUSTODY_ADMIN_RPC } from '../custody/custody.messages';
import { CSV_EXPORT_RPC } from '../csv/csv.messages';
import { IMPORT_RPC } from '../imports/import.messages';
import { CUSTOM_FIELD_ADMIN_RPC } from '../custom-fields/custom-field.messages';
import { DELIVERY_ADMIN_RPC, DELIVERY_CONSOLE_RPC } from '../deliveries/delivery.messages';
import { EVENT_FEED_RPC } from '../events/event-feed';
import { NOTICE_RPC } from '../notices/notice.messages';
import { REMINDER_RPC } from '../reminders/reminder.messages';
import { MEMBER_ADMIN_RPC, MEMBER_CONSOLE_ADMIN_RPC, MEMBER_RPC } from '../members/member.messages';
import { PEOPLE_RPC } from '../people/person.messages';
import { SIGN_IN_ADMIN_RPC } from '../sign-in/sign-in.messages';
import { USAGE_ADMIN_RPC } from '../usage/usage.messages';
import { WEBHOOK_ADMIN_RPC, WEBHOOK_CONSOLE_RPC } from '../webhooks/webhook.messages';
import { WORKSPACE_ADMIN_RPC } from '../workspaces/workspace.messages';
import { patternsOf } from './contract';

/** Queue and exchange names; every app and the admin CLI take them from here. */
export const REGISTER_RPC_QUEUE = 'custodian.register.rpc';
/**
 * The lane of a queue for its heavy messages (RpcContract.heavy): lists and searches wait
 * there, never ahead of a fetch or a write in the queue itself. Named after the queue, so
 * whatever names the queue (a test's, a benchmark's) names its lane too.
 */
export function heavyLaneOf(queue: string): string {
  return `${queue}.heavy`;
}
export const GATEWAY_ADMIN_QUEUE = 'custodian.gateway.admin';
export const REGISTER_ADMIN_QUEUE = 'custodian.register.admin';
export const WORKER_ADMIN_QUEUE = 'custodian.webhook-worker.admin';
export const EVENTS_EXCHANGE = 'custodian.events';
/** The webhook-worker's events queue (a quorum queue bound to every key of EVENTS_EXCHANGE). */
export const WORKER_EVENTS_QUEUE = 'custodian.webhook-worker.deliveries';
/**
 * Where the events queue sets aside a message past its delivery limit: a fanout exchange and
 * the quorum queue bound to it, under one name.
 */
export const EVENTS_DEAD_LETTER_EXCHANGE = 'custodian.events.dead';
export const EVENTS_DEAD_LETTER_QUEUE = 'custodian.events.dead';

/**
 * The messages of each queue, by name, composed from the domains' entries (each domain's
 * `*.messages.ts` declares its messages and their entries).
 */

/**
 * The register's API queue: the public API's assets, people, members, bookings, requests,
 * licences, maintenance, reminders, locations, categories, audits.
 */
export const RegisterRpc = {
  ...ASSET_RPC,
  ...PEOPLE_RPC,
  ...MEMBER_RPC,
  ...BOOKING_RPC,
  ...LICENSE_RPC,
  ...MAINTENANCE_RPC,
  ...ASSET_REQUEST_RPC,
  ...NOTICE_RPC,
  ...REMINDER_RPC,
  ...AUDIT_RPC,
  ...CALENDAR_FEED_RPC,
  ...LOCATION_RPC,
  ...CATEGORY_RPC,
  ...CSV_EXPORT_RPC,
  ...IMPORT_RPC,
};

/**
 * Console work the register owns, reached by the admin CLI and the gateway (which also signs
 * console users in through it).
 */
export const RegisterAdminRpc = {
  ...CUSTOM_FIELD_ADMIN_RPC,
  ...MEMBER_ADMIN_RPC,
  ...SIGN_IN_ADMIN_RPC,
  ...MEMBER_CONSOLE_ADMIN_RPC,
  ...CUSTODY_ADMIN_RPC,
  ...ACTIVITY_ADMIN_RPC,
  ...USAGE_ADMIN_RPC,
  ...CALENDAR_FEED_ADMIN_RPC,
};

/** Console work the gateway owns: workspaces, plans and keys. */
export const GatewayAdminRpc = { ...WORKSPACE_ADMIN_RPC };

/** Console work the webhook-worker owns (endpoints, Test ping, delivery log). */
export const WorkerAdminRpc = { ...WEBHOOK_ADMIN_RPC, ...DELIVERY_ADMIN_RPC };

/**
 * The console's webhooks and delivery log, on the worker's admin queue: the gateway forwards
 * each console route with the signed-in member's workspace, which scopes every lookup.
 */
export const WorkerConsoleRpc = {
  ...WEBHOOK_CONSOLE_RPC,
  ...ACTIVITY_CONSOLE_RPC,
  ...DELIVERY_CONSOLE_RPC,
};

/** The public API's reads the worker answers (the change feed), forwarded by the gateway. */
export const WorkerApiRpc = { ...EVENT_FEED_RPC };

/** Pattern names alone, for callers that build messages from strings (the admin CLI). */
export const RegisterPatterns = patternsOf(RegisterRpc);
export const RegisterAdminPatterns = patternsOf(RegisterAdminRpc);
export const GatewayAdminPatterns = patternsOf(GatewayAdminRpc);
export const WorkerAdminPatterns = patternsOf(WorkerAdminRpc);
export const WorkerConsolePatterns = patternsOf(WorkerConsoleRpc);
