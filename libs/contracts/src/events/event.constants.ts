/** The 41 event keys of the spec (section 6.4), by module. */
export const EVENT_KEYS_BY_MODULE = {
  assets: [
    'asset.created',
    'asset.updated',
    'asset.deleted',
    'asset.restored',
    'asset.condition_changed',
    'asset.scanned',
  ],
  assignments: ['assignment.checked_out', 'assignment.checked_in', 'assignment.overdue'],
  requests: ['request.created', 'request.approved', 'request.rejected'],
  audits: ['audit.started', 'audit.completed', 'audit.item_missing'],
  people: ['employee.created', 'employee.offboarded', 'member.invited', 'member.removed'],
  maintenance: [
    'warranty.expiring',
    'warranty.expired',
    'maintenance.created',
    'maintenance.resolved',
  ],
  licences: [
    'license.created',
    'license.updated',
    'license.deleted',
    'license.seat_assigned',
    'license.seat_released',
    'license.expiring',
    'license.expired',
  ],
  bookings: [
    'booking.created',
    'booking.requested',
    'booking.confirmed',
    'booking.cancelled',
    'booking.checked_out',
    'booking.completed',
    'booking.overdue',
    'booking.no_show',
  ],
  reminders: ['reminder.due'],
  plan: ['plan.changed', 'plan.limit_reached'],
} as const;

type ModuleKeys = (typeof EVENT_KEYS_BY_MODULE)[keyof typeof EVENT_KEYS_BY_MODULE];
export type EventKey = ModuleKeys[number];

export const EVENT_KEYS: readonly EventKey[] = Object.values(EVENT_KEYS_BY_MODULE).flat();

/** The console's Test ping; delivered whatever an endpoint subscribes to. */
export const PING_EVENT = 'ping';
export type DeliverableEvent = EventKey | typeof PING_EVENT;

/** Every key a delivery can carry: the catalog's and the ping. */
export const DELIVERABLE_EVENTS: readonly DeliverableEvent[] = [...EVENT_KEYS, PING_EVENT];

export function isEventKey(value: string): value is EventKey {
  return (EVENT_KEYS as readonly string[]).includes(value);
}
