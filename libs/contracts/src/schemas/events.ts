import {
  Type,
  type Static,
  type TLiteral,
  type TObject,
  type TSchema,
  type TString,
} from '@sinclair/typebox';
import type { DeliverableEvent } from '../events';
import { ASSET_EXAMPLE, AssetSchema } from './assets';
import { CalendarDate, NamedRefOf, Nullable, PrefixedId, StringEnum, Timestamp } from './common';
import { MEMBER_EXAMPLE, MemberSchema } from './members';
import { PERSON_EXAMPLE, PersonSchema } from './people';
import { EffectiveLimitsSchema, PlanNameSchema, WorkspaceIdSchema } from './workspace';

/**
 * The `data` of every webhook event (DECISIONS: Events). Events the service emits carry
 * exactly what their writers put in the outbox; the register's and the gateway's writers are
 * typed by these schemas. Keys of modules the product does not implement yet are in the
 * catalog (and can be subscribed to) with the payload they will carry, marked as not emitted.
 */

const NOT_EMITTED = 'In the catalog (and can be subscribed to) but not emitted yet.';
const EXAMPLE_AT = '2026-11-22T10:15:00.000Z';
const EXAMPLE_PERSON = { id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w', name: 'Margaret Hamilton' };
const EXAMPLE_ASSET_REF = {
  id: 'ast_01jd8x6q4f7k2m9n3p5r7t9v1w',
  name: 'MacBook Pro 14"',
  asset_tag: 'AT-000042',
};
const EXAMPLE_WORKSPACE = { id: 'wsp_01jd8w0a9b8c7d6e5f4g3h2j1k', name: 'Acme' };

/** `schema` with its own title, description and examples: the data of one event key. */
function eventData<T extends TSchema>(
  key: DeliverableEvent,
  schema: T,
  description: string,
  examples?: unknown[],
): T {
  // allOf rather than a copy: the shared schema stays one object, which the OpenAPI document
  // turns into a $ref instead of repeating the asset for every asset.* key.
  return {
    allOf: [schema],
    title: `${key} data`,
    description,
    ...(examples ? { examples } : {}),
  } as unknown as T;
}

// ---- emitted -----------------------------------------------------------------------------

const assetData = (key: DeliverableEvent, what: string, emitted = true) =>
  eventData(
    key,
    AssetSchema,
    `${what} The asset as \`GET /assets/{id}\` returns it.${emitted ? '' : ` ${NOT_EMITTED}`}`,
    [ASSET_EXAMPLE],
  );

const personRef = NamedRefOf('per', 'person');

/** assignment.checked_out and .checked_in: the asset as fetched, the person concerned, when. */
const custodyData = (key: DeliverableEvent, description: string, example: object) =>
  eventData(
    key,
    Type.Object(
      {
        asset: AssetSchema,
        person: personRef,
        at: Timestamp('When it happened (the updated_at of the asset).'),
      },
      { additionalProperties: false },
    ),
    description,
    [example],
  );

const planChangeSide = (which: string) =>
  Type.Object(
    { plan: PlanNameSchema, limits: EffectiveLimitsSchema },
    { additionalProperties: false, description: `The plan and effective limits ${which}.` },
  );

const planChangedData = eventData(
  'plan.changed',
  Type.Object(
    {
      workspace: Type.Object(
        { id: WorkspaceIdSchema, name: Type.String() },
        { additionalProperties: false },
      ),
      previous: planChangeSide('before the change'),
      current: planChangeSide('after the change'),
    },
    { additionalProperties: false },
  ),
  "The workspace's plan or its limit overrides changed (written in the transaction of the change).",
  [
    {
      workspace: EXAMPLE_WORKSPACE,
      previous: {
        plan: 'pro',
        limits: { ratePerMinute: 120, monthlyQuota: 100000, assets: 5000, people: 1000, seats: 25 },
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
);

/** Written by the register: the create (or acceptance) that used the last unit of a limit. */
const RecordLimitReachedSchema = Type.Object(
  {
    workspace: Type.Object({ id: WorkspaceIdSchema }, { additionalProperties: false }),
    plan: PlanNameSchema,
    limit: StringEnum(['assets', 'people', 'seats'] as const, {
      description: 'Which limit: assets and people by a create, seats by an accepted invitation.',
    }),
    value: Type.Integer({ minimum: 0, description: 'The limit now reached.' }),
  },
  {
    additionalProperties: false,
    description:
      'Asset, people or seat limit: written by the create or invitation acceptance that ' +
      'used the last unit (the next one is refused with 403).',
  },
);

/** Written by the gateway: the request that used the last unit of a key's monthly quota. */
const QuotaLimitReachedSchema = Type.Object(
  {
    workspace: Type.Object(
      { id: WorkspaceIdSchema, name: Type.String() },
      { additionalProperties: false },
    ),
    plan: PlanNameSchema,
    limit: Type.Literal('monthly_quota'),
    value: Type.Integer({ minimum: 0, description: 'The monthly quota per key now used up.' }),
    key: Type.Object(
      {
        id: PrefixedId('key', 'Id of the key.'),
        prefix: Type.String({ description: 'Display prefix of the key.' }),
      },
      { additionalProperties: false, description: 'The key whose quota is used up.' },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Monthly quota: written for the request that used the last unit of a key's quota " +
      '(the next one is refused with 429).',
  },
);

const planLimitReachedData = eventData(
  'plan.limit_reached',
  Type.Union([RecordLimitReachedSchema, QuotaLimitReachedSchema]),
  'A plan limit was reached, once per crossing. `limit` tells which: `assets`, `people` or ' +
    '`seats` (register), or `monthly_quota` (gateway, with the workspace name and the key).',
  [
    { workspace: { id: EXAMPLE_WORKSPACE.id }, plan: 'pro', limit: 'assets', value: 5000 },
    {
      workspace: EXAMPLE_WORKSPACE,
      plan: 'pro',
      limit: 'monthly_quota',
      value: 100000,
      key: { id: 'key_01jd8w1b2c3d4e5f6g7h8j9k0m', prefix: 'cus_7Hq2Lx9P' },
    },
  ],
);

const pingData = eventData(
  'ping',
  Type.Object(
    {
      endpoint: Type.Object(
        {
          id: PrefixedId('whe', 'Id of the webhook endpoint.'),
          url: Type.String({ description: 'URL of the endpoint.' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  "The console's Test ping: delivered whatever the endpoint subscribes to; names the endpoint.",
  [
    {
      endpoint: {
        id: 'whe_01jd8y0a1b2c3d4e5f6g7h8j9k',
        url: 'https://hooks.example.com/custodian',
      },
    },
  ],
);

// ---- in the catalog, not emitted yet -----------------------------------------------------

const AssetRefSchema = Type.Object(
  {
    id: PrefixedId('ast', 'Id of the asset.'),
    name: Type.String(),
    asset_tag: Type.String(),
  },
  { additionalProperties: false, description: 'The asset concerned.' },
);

const RequestSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the request.' }),
    status: StringEnum(['pending', 'approved', 'rejected'] as const),
    requested_by: personRef,
    asset: Nullable(AssetRefSchema, { description: 'The asset asked for, if a specific one.' }),
    note: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
const requestExample = (status: string) => ({
  id: 'req_01jd8z0a1b2c3d4e5f6g7h8j9k',
  status,
  requested_by: EXAMPLE_PERSON,
  asset: EXAMPLE_ASSET_REF,
  note: 'Replacement for a broken screen',
  created_at: EXAMPLE_AT,
  updated_at: EXAMPLE_AT,
});
const requestData = (key: DeliverableEvent, what: string, status: string) =>
  eventData(key, RequestSchema, `${what} ${NOT_EMITTED}`, [requestExample(status)]);

const AuditSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the audit.' }),
    name: Type.String(),
    status: StringEnum(['in_progress', 'completed'] as const),
    location: Nullable(NamedRefOf('loc', 'location'), { description: 'The location audited.' }),
    started_at: Timestamp(),
    completed_at: Nullable(Timestamp()),
  },
  { additionalProperties: false },
);
const auditExample = {
  id: 'aud_01jd8z1a2b3c4d5e6f7g8h9j0k',
  name: 'Berlin office Q4',
  status: 'in_progress',
  location: { id: 'loc_01jd8x1m2n3p4q5r6s7t8v9w0x', name: 'Berlin office' },
  started_at: EXAMPLE_AT,
  completed_at: null,
};

const MaintenanceSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the maintenance record.' }),
    asset: AssetRefSchema,
    title: Type.String(),
    status: StringEnum(['open', 'resolved'] as const),
    created_at: Timestamp(),
    resolved_at: Nullable(Timestamp()),
  },
  { additionalProperties: false },
);
const maintenanceExample = {
  id: 'mnt_01jd8z2a3b4c5d6e7f8g9h0j1k',
  asset: EXAMPLE_ASSET_REF,
  title: 'Battery replacement',
  status: 'open',
  created_at: EXAMPLE_AT,
  resolved_at: null,
};

const WarrantySchema = Type.Object(
  { asset: AssetRefSchema, expires_on: CalendarDate('Last day of the warranty.') },
  { additionalProperties: false },
);

const LicenseSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the licence.' }),
    name: Type.String(),
    vendor: Nullable(Type.String()),
    seats: Nullable(Type.Integer({ minimum: 0 }), {
      description: 'Seats bought; null if unlimited.',
    }),
    seats_used: Type.Integer({ minimum: 0 }),
    expires_on: Nullable(CalendarDate()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
const licenseExample = {
  id: 'lic_01jd8z3a4b5c6d7e8f9g0h1j2k',
  name: 'JetBrains All Products',
  vendor: 'JetBrains',
  seats: 25,
  seats_used: 12,
  expires_on: '2027-03-31',
  created_at: EXAMPLE_AT,
  updated_at: EXAMPLE_AT,
};
const LicenseSeatSchema = Type.Object(
  {
    license: Type.Object(
      { id: Type.String(), name: Type.String() },
      { additionalProperties: false },
    ),
    person: personRef,
    at: Timestamp(),
  },
  { additionalProperties: false },
);
const licenseSeatExample = {
  license: { id: licenseExample.id, name: licenseExample.name },
  person: EXAMPLE_PERSON,
  at: EXAMPLE_AT,
};

const BOOKING_STATUSES = [
  'requested',
  'confirmed',
  'cancelled',
  'checked_out',
  'completed',
  'overdue',
  'no_show',
] as const;
const BookingSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the booking.' }),
    asset: AssetRefSchema,
    person: personRef,
    status: StringEnum(BOOKING_STATUSES),
    starts_at: Timestamp(),
    ends_at: Timestamp(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
const bookingData = (key: DeliverableEvent, what: string, status: string) =>
  eventData(key, BookingSchema, `${what} ${NOT_EMITTED}`, [
    {
      id: 'bkg_01jd8z4a5b6c7d8e9f0g1h2j3k',
      asset: EXAMPLE_ASSET_REF,
      person: EXAMPLE_PERSON,
      status,
      starts_at: '2026-12-01T09:00:00.000Z',
      ends_at: '2026-12-05T17:00:00.000Z',
      created_at: EXAMPLE_AT,
      updated_at: EXAMPLE_AT,
    },
  ]);

const ReminderSchema = Type.Object(
  {
    id: Type.String({ description: 'Id of the reminder.' }),
    title: Type.String(),
    due_at: Timestamp(),
    asset: Nullable(AssetRefSchema),
  },
  { additionalProperties: false },
);

const custodyExample = {
  asset: ASSET_EXAMPLE,
  person: EXAMPLE_PERSON,
  at: ASSET_EXAMPLE.updated_at,
};

/** The `data` schema of every deliverable event: the 41 catalog keys and `ping`. */
export const EVENT_DATA_SCHEMAS = {
  'asset.created': assetData('asset.created', 'An asset was created.'),
  'asset.updated': assetData(
    'asset.updated',
    'An asset was changed (PATCH with at least one field given).',
  ),
  'asset.deleted': assetData('asset.deleted', 'An asset was deleted; as it was before.', false),
  'asset.restored': assetData('asset.restored', 'A deleted asset was restored.', false),
  'asset.condition_changed': assetData(
    'asset.condition_changed',
    'The condition of an asset changed.',
    false,
  ),
  'asset.scanned': assetData('asset.scanned', 'The tag of an asset was scanned.', false),

  'assignment.checked_out': custodyData(
    'assignment.checked_out',
    'An asset was checked out to a person (create or PATCH with `assigned_to_id`): the asset ' +
      'as fetched afterwards, the person it went to, and when.',
    custodyExample,
  ),
  'assignment.checked_in': custodyData(
    'assignment.checked_in',
    'An asset was checked in from a person (PATCH with another or a null `assigned_to_id`): ' +
      'the asset as fetched afterwards, the person who held it, and when.',
    { ...custodyExample, asset: { ...ASSET_EXAMPLE, assigned_to: null, custody: null } },
  ),
  'assignment.overdue': eventData(
    'assignment.overdue',
    Type.Object(
      {
        asset: AssetSchema,
        person: personRef,
        since: Timestamp('When the asset was checked out.'),
        due_at: Timestamp('When it was due back.'),
      },
      { additionalProperties: false },
    ),
    `An asset checked out with a due date was not returned in time. ${NOT_EMITTED}`,
    [{ asset: ASSET_EXAMPLE, person: EXAMPLE_PERSON, since: EXAMPLE_AT, due_at: EXAMPLE_AT }],
  ),

  'request.created': requestData('request.created', 'An asset request was made.', 'pending'),
  'request.approved': requestData('request.approved', 'An asset request was approved.', 'approved'),
  'request.rejected': requestData('request.rejected', 'An asset request was rejected.', 'rejected'),

  'audit.started': eventData('audit.started', AuditSchema, `An audit was started. ${NOT_EMITTED}`, [
    auditExample,
  ]),
  'audit.completed': eventData(
    'audit.completed',
    AuditSchema,
    `An audit was completed. ${NOT_EMITTED}`,
    [{ ...auditExample, status: 'completed', completed_at: EXAMPLE_AT }],
  ),
  'audit.item_missing': eventData(
    'audit.item_missing',
    Type.Object(
      {
        audit: Type.Object(
          { id: Type.String(), name: Type.String() },
          { additionalProperties: false },
        ),
        asset: AssetRefSchema,
      },
      { additionalProperties: false },
    ),
    `An audit did not find an asset it expected. ${NOT_EMITTED}`,
    [{ audit: { id: auditExample.id, name: auditExample.name }, asset: EXAMPLE_ASSET_REF }],
  ),

  'employee.created': eventData(
    'employee.created',
    PersonSchema,
    'A person was created. The person as `GET /people/{id}` returns it.',
    [PERSON_EXAMPLE],
  ),
  'employee.offboarded': eventData(
    'employee.offboarded',
    PersonSchema,
    'A person moved from `active` to `inactive` (once per move). The person as ' +
      '`GET /people/{id}` returns it; assets are not checked in by it.',
    [{ ...PERSON_EXAMPLE, status: 'inactive' }],
  ),
  'member.invited': eventData(
    'member.invited',
    MemberSchema,
    'A member was invited (`POST /members`). The member as `GET /members` shows it; never the ' +
      'invitation token.',
    [MEMBER_EXAMPLE],
  ),
  'member.removed': eventData(
    'member.removed',
    MemberSchema,
    `A member was removed from the workspace; the member as it was. ${NOT_EMITTED}`,
    [{ ...MEMBER_EXAMPLE, status: 'active', joined_at: EXAMPLE_AT }],
  ),

  'warranty.expiring': eventData(
    'warranty.expiring',
    WarrantySchema,
    `The warranty of an asset ends soon. ${NOT_EMITTED}`,
    [{ asset: EXAMPLE_ASSET_REF, expires_on: '2026-12-31' }],
  ),
  'warranty.expired': eventData(
    'warranty.expired',
    WarrantySchema,
    `The warranty of an asset has ended. ${NOT_EMITTED}`,
    [{ asset: EXAMPLE_ASSET_REF, expires_on: '2026-11-21' }],
  ),
  'maintenance.created': eventData(
    'maintenance.created',
    MaintenanceSchema,
    `A maintenance record was opened for an asset. ${NOT_EMITTED}`,
    [maintenanceExample],
  ),
  'maintenance.resolved': eventData(
    'maintenance.resolved',
    MaintenanceSchema,
    `A maintenance record was resolved. ${NOT_EMITTED}`,
    [{ ...maintenanceExample, status: 'resolved', resolved_at: EXAMPLE_AT }],
  ),

  'license.created': eventData(
    'license.created',
    LicenseSchema,
    `A software licence was created. ${NOT_EMITTED}`,
    [licenseExample],
  ),
  'license.updated': eventData(
    'license.updated',
    LicenseSchema,
    `A software licence was changed. ${NOT_EMITTED}`,
    [licenseExample],
  ),
  'license.deleted': eventData(
    'license.deleted',
    LicenseSchema,
    `A software licence was deleted; as it was. ${NOT_EMITTED}`,
    [licenseExample],
  ),
  'license.seat_assigned': eventData(
    'license.seat_assigned',
    LicenseSeatSchema,
    `A licence seat was assigned to a person. ${NOT_EMITTED}`,
    [licenseSeatExample],
  ),
  'license.seat_released': eventData(
    'license.seat_released',
    LicenseSeatSchema,
    `A licence seat was released by a person. ${NOT_EMITTED}`,
    [licenseSeatExample],
  ),
  'license.expiring': eventData(
    'license.expiring',
    LicenseSchema,
    `A software licence ends soon. ${NOT_EMITTED}`,
    [licenseExample],
  ),
  'license.expired': eventData(
    'license.expired',
    LicenseSchema,
    `A software licence has ended. ${NOT_EMITTED}`,
    [licenseExample],
  ),

  'booking.created': bookingData('booking.created', 'A booking was created.', 'confirmed'),
  'booking.requested': bookingData('booking.requested', 'A booking was requested.', 'requested'),
  'booking.confirmed': bookingData('booking.confirmed', 'A booking was confirmed.', 'confirmed'),
  'booking.cancelled': bookingData('booking.cancelled', 'A booking was cancelled.', 'cancelled'),
  'booking.checked_out': bookingData(
    'booking.checked_out',
    'A booked asset was handed out.',
    'checked_out',
  ),
  'booking.completed': bookingData(
    'booking.completed',
    'A booked asset was returned.',
    'completed',
  ),
  'booking.overdue': bookingData(
    'booking.overdue',
    'A booked asset was not returned by the end of the booking.',
    'overdue',
  ),
  'booking.no_show': bookingData('booking.no_show', 'A booking was not picked up.', 'no_show'),

  'reminder.due': eventData('reminder.due', ReminderSchema, `A reminder is due. ${NOT_EMITTED}`, [
    {
      id: 'rem_01jd8z5a6b7c8d9e0f1g2h3j4k',
      title: 'Annual PAT test',
      due_at: EXAMPLE_AT,
      asset: EXAMPLE_ASSET_REF,
    },
  ]),

  'plan.changed': planChangedData,
  'plan.limit_reached': planLimitReachedData,

  ping: pingData,
} satisfies Record<DeliverableEvent, TSchema>;

/** The events the service emits today; the other catalog keys are documented, not emitted. */
export const EMITTED_EVENTS = [
  'asset.created',
  'asset.updated',
  'assignment.checked_out',
  'assignment.checked_in',
  'employee.created',
  'employee.offboarded',
  'member.invited',
  'plan.changed',
  'plan.limit_reached',
  'ping',
] as const satisfies readonly DeliverableEvent[];

/** The `data` of event `K`, as its writer must give it. */
export type EventData<K extends DeliverableEvent> = Static<(typeof EVENT_DATA_SCHEMAS)[K]>;

export type EventEnvelopeSchema<K extends DeliverableEvent> = TObject<{
  id: TString;
  event: TLiteral<K>;
  created_at: TString;
  data: (typeof EVENT_DATA_SCHEMAS)[K];
}>;

/** The webhook delivery body of event `K` (spec 2.6): `{id, event, created_at, data}`. */
export function eventEnvelopeSchema<K extends DeliverableEvent>(key: K): EventEnvelopeSchema<K> {
  const data = EVENT_DATA_SCHEMAS[key];
  const dataExample = (data as { examples?: unknown[] }).examples?.[0];
  return Type.Object(
    {
      id: Type.String({
        pattern: '^evt_',
        description: 'Unique id of the event (`evt_` + a ULID); deduplicate on it.',
      }),
      event: Type.Literal(key, { description: 'The event key.' }),
      created_at: Timestamp('When the event happened; order by it (delivery order is not).'),
      data,
    },
    {
      additionalProperties: false,
      title: `${key} event`,
      description:
        `The body of a \`${key}\` delivery. ${(data as TSchema).description ?? ''}`.trim(),
      ...(dataExample === undefined
        ? {}
        : {
            examples: [
              {
                id: 'evt_01jd8y9x8w7v6t5s4r3q2p1n0m',
                event: key,
                created_at: EXAMPLE_AT,
                data: dataExample,
              },
            ],
          }),
    },
  );
}

/** The envelope of a typed event. */
export type TypedEventEnvelope<K extends DeliverableEvent> = Static<EventEnvelopeSchema<K>>;
