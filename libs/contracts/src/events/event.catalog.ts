import { ASSET_REQUEST_EXAMPLE, AssetRequest } from '../asset-requests/asset-request.views';
import { ASSET_EXAMPLE, Asset } from '../assets/asset.views';
import { AuditItemMissing } from '../audits/audit.events';
import { AUDIT_EXAMPLE, Audit } from '../audits/audit.views';
import { BOOKING_EXAMPLE, Booking } from '../bookings/booking.views';
import { AssetScan, ConditionChange, WarrantyNotice } from '../assets/asset.events';
import { AssignmentOverdue, CustodyChange } from '../custody/custody.events';
import { examplesOf } from '../fields/contract-schema.decorator';
import type { ContractClass } from '../fields/field.decorators';
import {
  LICENSE_EXAMPLE,
  License,
  LicenseExpiry,
  LicenseSeatChange,
} from '../licenses/license.views';
import { MAINTENANCE_EXAMPLE, Maintenance } from '../maintenance/maintenance.views';
import { MEMBER_EXAMPLE, Member } from '../members/member.views';
import { PERSON_HOLDINGS_MAX } from '../people/person.constants';
import { PERSON_EXAMPLE, Person } from '../people/person.views';
import { PingEvent } from '../webhooks/webhook.events';
import { PlanChanged, QuotaLimitReached, RecordLimitReached } from '../workspaces/plan.events';
import type { DeliverableEvent } from './event.constants';
import { REMINDER_EXAMPLE, Reminder } from '../reminders/reminder.views';

/**
 * Every deliverable event (the 41 catalog keys and `ping`): the class of its `data` (or the
 * classes it is one of), what it means and examples. Events the service emits carry exactly
 * what their writers put in the outbox, and the writers only compile with the class of their
 * key (EventData<K>).
 */
export interface EventEntry {
  readonly data: ContractClass | readonly ContractClass[];
  readonly description: string;
  /** The class's own examples when not given. */
  readonly examples?: readonly object[];
}

/** The events the service emits today; the other catalog keys are documented, not emitted. */
export const EMITTED_EVENTS = [
  'asset.created',
  'asset.updated',
  'asset.deleted',
  'asset.restored',
  'asset.condition_changed',
  'asset.scanned',
  'assignment.checked_out',
  'assignment.checked_in',
  'assignment.overdue',
  'request.created',
  'request.approved',
  'request.rejected',
  'audit.started',
  'audit.completed',
  'audit.item_missing',
  'booking.created',
  'booking.requested',
  'booking.confirmed',
  'booking.cancelled',
  'booking.checked_out',
  'booking.completed',
  'booking.overdue',
  'booking.no_show',
  'license.created',
  'license.updated',
  'license.deleted',
  'license.seat_assigned',
  'license.seat_released',
  'license.expiring',
  'license.expired',
  'maintenance.created',
  'maintenance.resolved',
  'warranty.expiring',
  'warranty.expired',
  'reminder.due',
  'employee.created',
  'employee.offboarded',
  'member.invited',
  'member.removed',
  'plan.changed',
  'plan.limit_reached',
  'ping',
] as const satisfies readonly DeliverableEvent[];

const NOT_EMITTED = 'In the catalog (and can be subscribed to) but not emitted yet.';
const AT = '2026-11-22T10:15:00.000Z';
const PERSON = { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' };
const ASSET_REF = {
  id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w',
  name: 'MacBook Pro 14"',
  asset_tag: 'AT-000042',
};
const WORKSPACE = { id: 'wsp_01jd8w0a9b8c7d6e5f4g3h2j1k', name: 'Acme' };

const notEmitted = (what: string) => `${what} ${NOT_EMITTED}`;

const asset = (what: string) => ({
  data: Asset,
  description: `${what} The asset as \`GET /assets/{id}\` returns it.`,
});

const custody = { asset: ASSET_EXAMPLE, person: PERSON, at: ASSET_EXAMPLE.updated_at };

/** request.*: the request after the change; the booking or check-out follows approval. */
const request = (what: string, status: string, decision: object | null) => ({
  data: AssetRequest,
  description: what,
  examples: [{ ...ASSET_REQUEST_EXAMPLE, status, decision }],
});

const licenceData = (what: string) => ({
  data: License,
  description: what,
  examples: [LICENSE_EXAMPLE],
});
const licenceSeat = (what: string) => ({
  data: LicenseSeatChange,
  description: what,
  examples: [
    {
      seat: {
        id: 'lst_01jd8z3a4b5c6d7e8f9g0h1j2m',
        license: { id: LICENSE_EXAMPLE.id, name: LICENSE_EXAMPLE.name },
        person: PERSON,
        asset: null,
        assigned_at: AT,
      },
      seats: LICENSE_EXAMPLE.seats,
      seats_used: LICENSE_EXAMPLE.seats_used,
      at: AT,
    },
  ],
});

/** booking.*: the booking after the change. */
const booking = (description: string, status: string, emitted = true) => ({
  data: Booking,
  description: emitted ? description : notEmitted(description),
  examples: [{ ...BOOKING_EXAMPLE, status }],
});

export const EVENT_CATALOG = {
  'asset.created': asset('An asset was created.'),
  'asset.updated': asset('An asset was changed (PATCH with at least one field given).'),
  'asset.deleted': asset(
    'An asset was deleted in the console (soft delete: it leaves lists and fetches with 404 ' +
      'until restored); the asset as it was.',
  ),
  'asset.restored': asset('A deleted asset was restored in the console, with the same id.'),
  'asset.condition_changed': {
    data: ConditionChange,
    description:
      'The condition of an asset changed (`condition` on create is part of `asset.created`): ' +
      'the asset afterwards, the condition before and after, and when. Fired beside ' +
      '`asset.updated`.',
    examples: [{ asset: ASSET_EXAMPLE, from: 'good', to: 'poor', at: AT }],
  },
  'asset.scanned': {
    data: AssetScan,
    description:
      'The asset tag or serial number of an asset was scanned in the console: the asset, the ' +
      'code as scanned, what it matched, and when.',
    examples: [{ asset: ASSET_EXAMPLE, code: 'AT-000042', matched: 'asset_tag', at: AT }],
  },

  'assignment.checked_out': {
    data: CustodyChange,
    description:
      'An asset was checked out to a person (create or PATCH with `assigned_to_id`): the asset ' +
      'as fetched afterwards, the person it went to, and when.',
    examples: [custody],
  },
  'assignment.checked_in': {
    data: CustodyChange,
    description:
      'An asset was checked in from a person (PATCH with another or a null `assigned_to_id`): ' +
      'the asset as fetched afterwards, the person who held it, and when.',
    examples: [{ ...custody, asset: { ...ASSET_EXAMPLE, assigned_to: null, custody: null } }],
  },
  'assignment.overdue': {
    data: AssignmentOverdue,
    description:
      'An asset checked out with a due date was still out when it passed: the asset as fetched ' +
      'then, the person holding it, since when, and the due date. Once per due date, within ' +
      '`DUE_DATES_SWEEP_MS` (5 s) of it.',
    examples: [{ asset: ASSET_EXAMPLE, person: PERSON, since: AT, due_at: AT }],
  },

  'request.created': request(
    'An asset was asked for (a given one or any of a category), for now or for a range. It waits for a manager.',
    'pending',
    null,
  ),
  'request.approved': request(
    'A request was approved with a chosen asset, checked out now or booked: the `assignment.*` or `booking.*` events of that follow, from the same transaction.',
    'approved',
    {
      note: null,
      at: AT,
      asset: ASSET_REQUEST_EXAMPLE.asset,
      fulfilled_by: 'booking',
      booking_id: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
    },
  ),
  'request.rejected': request('A request was refused; `decision.note` says why.', 'rejected', {
    note: 'All cameras are out that day',
    at: AT,
    asset: null,
    fulfilled_by: null,
    booking_id: null,
  }),

  'audit.started': {
    data: Audit,
    description:
      'An audit was started: its expected set is fixed (the scope’s assets at that moment) and ' +
      'it takes scans (status `open`). From the background job that follows POST /audits.',
    examples: [
      {
        ...AUDIT_EXAMPLE,
        counts: { expected: 120, found: 0, missing: 120, unexpected: 0, misplaced: 0 },
      },
    ],
  },
  'audit.completed': {
    data: Audit,
    description:
      'An audit was completed: every `audit.item_missing` of it, and the moves and `lost` ' +
      'statuses asked for, were written before it. The final counts.',
    examples: [
      {
        ...AUDIT_EXAMPLE,
        status: 'completed',
        completed_at: AT,
        completion: { move_found: true, mark_missing_lost: false },
      },
    ],
  },
  'audit.item_missing': {
    data: AuditItemMissing,
    description:
      'An audit completed without finding an asset it expected: one per missing asset, the ' +
      'asset as it was then and where it was at the audit’s start.',
    examples: [
      {
        audit: { id: AUDIT_EXAMPLE.id, name: AUDIT_EXAMPLE.name },
        asset: ASSET_REF,
        expected_location: AUDIT_EXAMPLE.location,
      },
    ],
  },

  'employee.created': {
    data: Person,
    description: 'A person was created. The person as `GET /people/{id}` returns it.',
  },
  'employee.offboarded': {
    data: Person,
    description:
      'A person moved from `active` to `inactive` (once per move). The person as ' +
      '`GET /people/{id}` returns it; assets are not checked in by it. `holdings` shows at ' +
      `most the ${PERSON_HOLDINGS_MAX} most recent check-outs: when \`holdings_count\` is ` +
      'larger, `GET /assets?assigned_to_id=<id>` lists what the person still holds.',
    examples: [{ ...PERSON_EXAMPLE, status: 'inactive' }],
  },
  'member.invited': {
    data: Member,
    description:
      'A member was invited (`POST /members`). The member as `GET /members` shows it; never the ' +
      'invitation token.',
  },
  'member.removed': {
    data: Member,
    description:
      'A member was removed from the workspace in the console (an invited one: the invitation ' +
      'was cancelled); the member as it was. Their sessions end with it.',
    examples: [{ ...MEMBER_EXAMPLE, status: 'active', joined_at: AT }],
  },

  'warranty.expiring': {
    data: WarrantyNotice,
    description:
      'An asset’s `warranty_expires_on` comes within a threshold of the notice settings ' +
      '(`expiry_days`, 30 and 7 by default): once per threshold, at the start (UTC) of the day ' +
      'that many days before it ends; a date set already inside thresholds fires the nearest ' +
      'one at once. A changed date fires them again for the new one.',
    examples: [{ asset: ASSET_REF, expires_on: '2026-12-31', days_left: 30 }],
  },
  'warranty.expired': {
    data: WarrantyNotice,
    description:
      'The warranty of an asset ended: once, at the end (UTC) of its `warranty_expires_on`, or ' +
      'at once when set to a day already past.',
    examples: [{ asset: ASSET_REF, expires_on: '2026-11-21', days_left: 0 }],
  },
  'maintenance.created': {
    data: Maintenance,
    description:
      'A maintenance record was logged for an asset (POST /assets/{id}/maintenance). With ' +
      '`set_asset_status` the asset went to status `maintenance` in the same transaction ' +
      '(`asset.updated` beside it).',
    examples: [MAINTENANCE_EXAMPLE],
  },
  'maintenance.resolved': {
    data: Maintenance,
    description:
      'A maintenance record was resolved, with its resolution notes and final cost. When it was ' +
      'the last open record holding the asset in `maintenance`, the asset went back to ' +
      '`asset_status_before` in the same transaction (`asset.updated` beside it).',
    examples: [
      {
        ...MAINTENANCE_EXAMPLE,
        status: 'resolved',
        resolution_notes: 'Battery replaced under the service plan',
        resolved_at: AT,
        updated_at: AT,
      },
    ],
  },

  'license.created': licenceData('A software licence was created.'),
  'license.updated': licenceData(
    'A software licence was changed (PATCH, or restored from the bin). Never carries the product key.',
  ),
  'license.deleted': licenceData(
    'A software licence was deleted (to the bin, restorable); as it was.',
  ),
  'license.seat_assigned': licenceSeat(
    'A seat of a licence was assigned to a person or an asset; with the seats used after it.',
  ),
  'license.seat_released': licenceSeat(
    'A seat was released (by hand, or when its person was offboarded); with the seats used after it.',
  ),
  'license.expiring': {
    data: LicenseExpiry,
    description:
      'A licence’s `expires_on` comes within a threshold of the notice settings (`expiry_days`, ' +
      '30 and 7 by default): once per threshold, at the start (UTC) of the day that many days ' +
      'before it ends; a date set already inside thresholds fires the nearest one at once. A ' +
      'changed date fires them again for the new one.',
    examples: [{ license: LICENSE_EXAMPLE, expires_on: LICENSE_EXAMPLE.expires_on, days_left: 7 }],
  },
  'license.expired': {
    data: LicenseExpiry,
    description:
      'A licence ended: once, at the end (UTC) of its `expires_on`, or at once when set to a ' +
      'day already past.',
    examples: [{ license: LICENSE_EXAMPLE, expires_on: LICENSE_EXAMPLE.expires_on, days_left: 0 }],
  },

  'booking.created': booking(
    'A booking was made (then `booking.confirmed` or `booking.requested` follows).',
    'confirmed',
  ),
  'booking.requested': booking(
    'A booking made by a member awaits a manager (the workspace requires approval); it holds its slot meanwhile. Then `booking.confirmed`, or `booking.cancelled` with `cancellation.reason: rejected`.',
    'requested',
  ),
  'booking.confirmed': booking(
    'A booking was confirmed: its assets are held for its range. Once per booking.',
    'confirmed',
  ),
  'booking.cancelled': booking(
    'A booking was cancelled (or rejected) before its assets were handed out; its range is free again. `cancellation` says why.',
    'cancelled',
  ),
  'booking.checked_out': booking(
    'The booking’s assets were handed out to its person (each also fires `assignment.checked_out`).',
    'checked_out',
  ),
  'booking.completed': booking(
    'The last of the booking’s assets came back (each fires `assignment.checked_in`).',
    'completed',
  ),
  'booking.overdue': booking(
    'A checked-out booking passed its end with assets still out. Once per end date (a booking given a later end is checked out again, and fires again if that end passes too).',
    'overdue',
  ),
  'booking.no_show': booking(
    'A confirmed (or still requested) booking was not checked out by its start plus the grace (the workspace’s `no_show_grace_minutes`, 60 by default); its assets are free again. Once per booking.',
    'no_show',
  ),

  'reminder.due': {
    data: Reminder,
    description:
      'A reminder reached an occurrence (once each): the reminder as it was then, `due_at` the ' +
      'occurrence and `next_due_at` the next one of a repeating reminder, now scheduled (null ' +
      'for a one-off, now done).',
    examples: [REMINDER_EXAMPLE],
  },

  'plan.changed': {
    data: PlanChanged,
    description:
      "The workspace's plan or its limit overrides changed (written in the transaction of the change).",
    examples: [
      {
        workspace: WORKSPACE,
        previous: {
          plan: 'pro',
          limits: {
            ratePerMinute: 120,
            monthlyQuota: 100000,
            assets: 5000,
            people: 1000,
            seats: 25,
          },
        },
        current: {
          plan: 'business',
          limits: {
            ratePerMinute: 600,
            monthlyQuota: 1000000,
            assets: 50000,
            people: 10000,
            seats: 200,
          },
        },
      },
    ],
  },
  'plan.limit_reached': {
    data: [RecordLimitReached, QuotaLimitReached],
    description:
      'A plan limit was reached, once per crossing. `limit` tells which: `assets`, `people` or ' +
      '`seats` (register), or `monthly_quota` (gateway, with the workspace name and the key).',
    examples: [
      { workspace: { id: WORKSPACE.id }, plan: 'pro', limit: 'assets', value: 5000 },
      {
        workspace: WORKSPACE,
        plan: 'pro',
        limit: 'monthly_quota',
        value: 100000,
        key: { id: 'key_01jd8w1b2c3d4e5f6g7h8j9k0m', prefix: 'cus_7Hq2Lx9P' },
      },
    ],
  },

  ping: {
    data: PingEvent,
    description:
      "The console's Test ping: delivered whatever the endpoint subscribes to; names the endpoint.",
    examples: [
      {
        endpoint: {
          id: 'whe_01jd8y0a1b2c3d4e5f6g7h8j9k',
          url: 'https://hooks.example.com/custodian',
        },
      },
    ],
  },
} as const satisfies Record<DeliverableEvent, EventEntry>;

type DataClassOf<D> = D extends readonly (infer C)[] ? C : D;

/** The `data` of event `K`, as its writer must give it. */
export type EventData<K extends DeliverableEvent> = InstanceType<
  Extract<DataClassOf<(typeof EVENT_CATALOG)[K]['data']>, ContractClass>
>;

/** The class of an event's `data`, or the classes it is one of. */
export function eventDataModels(key: DeliverableEvent): readonly ContractClass[] {
  const { data } = EVENT_CATALOG[key];
  return Array.isArray(data) ? data : [data as ContractClass];
}

/** Examples of an event's `data`: the catalog's, or its class's. */
export function eventDataExamples(key: DeliverableEvent): readonly object[] {
  const entry: EventEntry = EVENT_CATALOG[key];
  return entry.examples ?? eventDataModels(key).flatMap((model) => examplesOf(model));
}

/** A whole delivery body of event `key`, its data the first example. */
export function eventEnvelopeExample(key: DeliverableEvent): object {
  return {
    id: 'evt_01jd8y9x8w7v6t5s4r3q2p1n0m',
    event: key,
    created_at: AT,
    data: eventDataExamples(key)[0],
  };
}
