import {
  GatewayAdminPatterns,
  type Asset,
  type AssetSummary,
  type Booking,
  type BulkAssetReply,
  type DeletedAsset,
  type Page,
  type PersonDetail,
  type PersonSummary,
  type ConsoleEndpoint,
  type ConsoleKey,
  type ConsoleSession,
  type CreatedConsoleEndpoint,
  type CreatedConsoleKey,
  type DeliveryDetail,
  type DeliveryLogPage,
  type ErrorBody,
  type SigningSecret,
  type TestPing,
  type WorkspaceView,
} from '@custodian/contracts';
import {
  WebhookReceiver,
  eventually,
  freePort,
  httpRequest,
  type ApiResponse,
} from '@custodian/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConsoleClient } from './support/console-client';
import { MailSink } from './support/mail-sink';
import { TestStack } from './support/stack';

/**
 * Issue 12 over the console's whole HTTP API: a session of workspace A never sees or changes
 * anything of workspace B (every route that takes an id, called with B's ids, and every list
 * and bulk route); hostile bodies and ids get a 4xx with the error body, never a 5xx; and no
 * secret (API key, signing secret, session id, CSRF token, sign-in token, password) reaches
 * a log line. The route tables are checked against docs/console-openapi.json, so a new route
 * the sweeps do not know fails here first.
 */

const DOCUMENT = JSON.parse(
  readFileSync(path.join(__dirname, '../../../docs/console-openapi.json'), 'utf8'),
) as ConsoleDocument;

interface Schema {
  type?: string;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
}
interface ConsoleDocument {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, Schema> } }>>;
  components: { schemas: Record<string, Schema> };
}

const WRITE_METHODS = new Set(['post', 'put', 'patch']);
const DAY = 24 * 3_600_000;

/** Every operation of the document as `METHOD /path`. */
const OPERATIONS = Object.entries(DOCUMENT.paths).flatMap(([route, item]) =>
  Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
);

/** The body schema of an operation, `$ref` followed; undefined when it takes no body. */
function bodySchema(operation: string): Schema | undefined {
  const [method, route] = operation.split(' ') as [string, string];
  const content = DOCUMENT.paths[route]?.[method.toLowerCase()]?.requestBody?.content;
  const schema = content?.['application/json'];
  const ref = (schema as { schema?: Schema } | undefined)?.schema?.$ref;
  return ref ? DOCUMENT.components.schemas[ref.replace('#/components/schemas/', '')] : undefined;
}

/** Ids of one workspace's records, as the sweeps pass them. */
interface Ids {
  workspace: string;
  key: string;
  endpoint: string;
  delivery: string;
  asset: string;
  /** An asset in the bin. */
  deletedAsset: string;
  /** An invited member. */
  member: string;
  person: string;
  /** A pending asset request (for the person, of the asset). */
  request: string;
  /** A confirmed booking of `asset` for `person`, tomorrow. */
  booking: string;
  /** A licence of 2 seats. */
  license: string;
  /** An open maintenance record of `asset`. */
  maintenance: string;
  /** A monthly reminder about `asset`. */
  reminder: string;
  /** A place with `asset` in it, and a category of `asset`. */
  location: string;
  category: string;
  /** An audit of `location`. */
  audit: string;
  /** A CSV import of people, header only (so starting it writes nothing). */
  import: string;
  /** The owner's console session, by its id in the list (not its cookie). */
  session: string;
}

/**
 * How each console route with an id in its path is called: the id it takes and a body that
 * would be valid for that workspace's own record (so only the id can make it fail). Every
 * route of the document with `{` in its path must be here.
 */
const ID_ROUTES: Record<string, (ids: Ids) => { id: string; body?: unknown }> = {
  'DELETE /console/api/keys/{id}': (ids) => ({ id: ids.key }),
  'DELETE /console/api/sessions/{id}': (ids) => ({ id: ids.session }),
  'GET /console/api/webhooks/{id}': (ids) => ({ id: ids.endpoint }),
  'PATCH /console/api/webhooks/{id}': (ids) => ({
    id: ids.endpoint,
    body: { url: 'http://127.0.0.1:9/stolen', enabled: false, description: 'taken over' },
  }),
  'DELETE /console/api/webhooks/{id}': (ids) => ({ id: ids.endpoint }),
  'POST /console/api/webhooks/{id}/secret/reveal': (ids) => ({ id: ids.endpoint }),
  'POST /console/api/webhooks/{id}/secret/rotate': (ids) => ({
    id: ids.endpoint,
    body: { overlap_hours: 0 },
  }),
  'POST /console/api/webhooks/{id}/test': (ids) => ({ id: ids.endpoint }),
  'GET /console/api/deliveries/{id}': (ids) => ({ id: ids.delivery }),
  'POST /console/api/deliveries/{id}/resend': (ids) => ({ id: ids.delivery }),
  'GET /console/api/assets/{id}': (ids) => ({ id: ids.asset }),
  'PATCH /console/api/assets/{id}': (ids) => ({
    id: ids.asset,
    body: { name: 'taken over', condition: 'broken' },
  }),
  'DELETE /console/api/assets/{id}': (ids) => ({ id: ids.asset }),
  'POST /console/api/assets/{id}/restore': (ids) => ({ id: ids.deletedAsset }),
  'GET /console/api/people/{id}': (ids) => ({ id: ids.person }),
  'PATCH /console/api/people/{id}': (ids) => ({
    id: ids.person,
    body: { full_name: 'taken over', status: 'inactive' },
  }),
  'DELETE /console/api/members/{id}': (ids) => ({ id: ids.member }),
  'PATCH /console/api/members/{id}': (ids) => ({ id: ids.member, body: { role: 'admin' } }),
  'POST /console/api/members/{id}/invitation': (ids) => ({ id: ids.member }),
  'GET /console/api/licenses/{id}': (ids) => ({ id: ids.license }),
  'PATCH /console/api/licenses/{id}': (ids) => ({ id: ids.license, body: { notes: 'taken over' } }),
  'DELETE /console/api/licenses/{id}': (ids) => ({ id: ids.license }),
  'POST /console/api/licenses/{id}/key': (ids) => ({ id: ids.license }),
  'GET /console/api/licenses/{id}/seats': (ids) => ({ id: ids.license }),
  'POST /console/api/licenses/{id}/seats': (ids) => ({
    id: ids.license,
    body: { person_id: ids.person },
  }),
  // The licence's id decides: another workspace's is not found before any seat is looked up.
  'DELETE /console/api/licenses/{id}/seats/{seatId}': (ids) => ({ id: ids.license }),
  'GET /console/api/reminders/{id}': (ids) => ({ id: ids.reminder }),
  'PATCH /console/api/reminders/{id}': (ids) => ({ id: ids.reminder, body: { title: 'taken' } }),
  'DELETE /console/api/reminders/{id}': (ids) => ({ id: ids.reminder }),
  'GET /console/api/audits/{id}': (ids) => ({ id: ids.audit }),
  'GET /console/api/audits/{id}/scans': (ids) => ({ id: ids.audit }),
  'POST /console/api/audits/{id}/scans': (ids) => ({
    id: ids.audit,
    body: { code: 'ALPHA-1' },
  }),
  'GET /console/api/audits/{id}/items': (ids) => ({ id: ids.audit }),
  'POST /console/api/audits/{id}/complete': (ids) => ({ id: ids.audit, body: {} }),
  'POST /console/api/audits/{id}/cancel': (ids) => ({ id: ids.audit }),
  'GET /console/api/imports/{id}': (ids) => ({ id: ids.import }),
  'GET /console/api/imports/{id}/rows': (ids) => ({ id: ids.import }),
  'POST /console/api/imports/{id}/start': (ids) => ({ id: ids.import }),
  'POST /console/api/imports/{id}/cancel': (ids) => ({ id: ids.import }),
  'GET /console/api/locations/{id}': (ids) => ({ id: ids.location }),
  'PATCH /console/api/locations/{id}': (ids) => ({ id: ids.location, body: { notes: 'taken' } }),
  'DELETE /console/api/locations/{id}': (ids) => ({ id: ids.location }),
  'GET /console/api/categories/{id}': (ids) => ({ id: ids.category }),
  'PATCH /console/api/categories/{id}': (ids) => ({ id: ids.category, body: { name: 'taken' } }),
  'DELETE /console/api/categories/{id}': (ids) => ({ id: ids.category }),
  'GET /console/api/requests/{id}': (ids) => ({ id: ids.request }),
  'POST /console/api/requests/{id}/approve': (ids) => ({ id: ids.request, body: {} }),
  'POST /console/api/requests/{id}/reject': (ids) => ({
    id: ids.request,
    body: { note: 'taken over' },
  }),
  'GET /console/api/bookings/{id}': (ids) => ({ id: ids.booking }),
  'PATCH /console/api/bookings/{id}': (ids) => ({ id: ids.booking, body: { notes: 'taken over' } }),
  'POST /console/api/bookings/{id}/confirm': (ids) => ({ id: ids.booking }),
  'POST /console/api/bookings/{id}/reject': (ids) => ({
    id: ids.booking,
    body: { note: 'taken over' },
  }),
  'POST /console/api/bookings/{id}/cancel': (ids) => ({ id: ids.booking, body: {} }),
  'POST /console/api/bookings/{id}/check-out': (ids) => ({ id: ids.booking }),
  'POST /console/api/bookings/{id}/check-in': (ids) => ({ id: ids.booking, body: {} }),
  'GET /console/api/assets/{id}/availability': (ids) => ({ id: ids.asset }),
  'GET /console/api/assets/{id}/maintenance': (ids) => ({ id: ids.asset }),
  'POST /console/api/assets/{id}/maintenance': (ids) => ({
    id: ids.asset,
    body: { title: 'taken over', type: 'repair', set_asset_status: true },
  }),
  'GET /console/api/maintenance/{id}': (ids) => ({ id: ids.maintenance }),
  'PATCH /console/api/maintenance/{id}': (ids) => ({
    id: ids.maintenance,
    body: { notes: 'taken over' },
  }),
  'POST /console/api/maintenance/{id}/resolve': (ids) => ({
    id: ids.maintenance,
    body: { notes: 'taken over' },
  }),
};

/**
 * Where each write route (POST, PUT, PATCH) of the document is sent hostile bodies: its path
 * with workspace A's own ids, whose session sends them, and (for a route with a body) a valid
 * body that each hostile field is added to, so that the field is the only thing wrong.
 * `signed-out` for sign-out, so that a body it ignores does not end the sweep's session.
 */
interface WriteTarget {
  path: (ids: Ids) => string;
  as: 'owner' | 'signed-out';
  valid?: (ids: Ids) => Record<string, unknown>;
}
const WRITE_ROUTES: Record<string, WriteTarget> = {
  'POST /console/api/sign-in/link': {
    path: () => '/console/api/sign-in/link',
    as: 'owner',
    valid: () => ({ email: 'ada@a.example' }),
  },
  'POST /console/api/sign-in/token': {
    path: () => '/console/api/sign-in/token',
    as: 'owner',
    valid: () => ({ token: 'no-such-token' }),
  },
  'POST /console/api/sign-in/password': {
    path: () => '/console/api/sign-in/password',
    as: 'owner',
    valid: () => ({ email: 'ada@a.example', password: 'not the password' }),
  },
  'POST /console/api/invitations/accept': {
    path: () => '/console/api/invitations/accept',
    as: 'owner',
    valid: () => ({ token: 'no-such-token' }),
  },
  'POST /console/api/session/workspace': {
    path: () => '/console/api/session/workspace',
    as: 'owner',
    valid: (ids) => ({ workspace_id: ids.workspace }),
  },
  'POST /console/api/sign-out': { path: () => '/console/api/sign-out', as: 'signed-out' },
  // Signed out, like sign-out: signed in, it would end the sweep's other sessions.
  'POST /console/api/sessions/sign-out-others': {
    path: () => '/console/api/sessions/sign-out-others',
    as: 'signed-out',
  },
  'PUT /console/api/account/password': {
    path: () => '/console/api/account/password',
    as: 'owner',
    valid: () => ({ password: 'a long enough password' }),
  },
  'POST /console/api/keys': {
    path: () => '/console/api/keys',
    as: 'owner',
    valid: () => ({ name: 'hostile', scope: 'read' }),
  },
  'POST /console/api/webhooks': {
    path: () => '/console/api/webhooks',
    as: 'owner',
    valid: () => ({ url: 'http://127.0.0.1:9/hostile', events: ['*'] }),
  },
  'PATCH /console/api/webhooks/{id}': {
    path: (ids) => `/console/api/webhooks/${ids.endpoint}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/webhooks/{id}/secret/reveal': {
    path: (ids) => `/console/api/webhooks/${ids.endpoint}/secret/reveal`,
    as: 'owner',
  },
  'POST /console/api/webhooks/{id}/secret/rotate': {
    path: (ids) => `/console/api/webhooks/${ids.endpoint}/secret/rotate`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/webhooks/{id}/test': {
    path: (ids) => `/console/api/webhooks/${ids.endpoint}/test`,
    as: 'owner',
  },
  'POST /console/api/deliveries/resend': {
    path: () => '/console/api/deliveries/resend',
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/deliveries/{id}/resend': {
    path: (ids) => `/console/api/deliveries/${ids.delivery}/resend`,
    as: 'owner',
  },
  'POST /console/api/assets': {
    path: () => '/console/api/assets',
    as: 'owner',
    valid: () => ({ name: 'hostile' }),
  },
  'POST /console/api/assets/bulk': {
    path: () => '/console/api/assets/bulk',
    as: 'owner',
    // A's own asset, not checked out: a check-in that changes nothing.
    valid: (ids) => ({ ids: [ids.asset], action: 'check_in' }),
  },
  'POST /console/api/assets/scan': {
    path: () => '/console/api/assets/scan',
    as: 'owner',
    valid: () => ({ code: 'NO-SUCH-TAG' }),
  },
  'PATCH /console/api/assets/{id}': {
    path: (ids) => `/console/api/assets/${ids.asset}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/assets/{id}/restore': {
    path: (ids) => `/console/api/assets/${ids.deletedAsset}/restore`,
    as: 'owner',
  },
  'POST /console/api/people': {
    path: () => '/console/api/people',
    as: 'owner',
    valid: () => ({ full_name: 'hostile' }),
  },
  'PATCH /console/api/people/{id}': {
    path: (ids) => `/console/api/people/${ids.person}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/members': {
    path: () => '/console/api/members',
    as: 'owner',
    valid: () => ({ email: 'hostile@a.example' }),
  },
  'PATCH /console/api/members/{id}': {
    path: (ids) => `/console/api/members/${ids.member}`,
    as: 'owner',
    valid: () => ({ role: 'manager' }),
  },
  'POST /console/api/members/{id}/invitation': {
    path: (ids) => `/console/api/members/${ids.member}/invitation`,
    as: 'owner',
  },
  'POST /console/api/licenses': {
    path: () => '/console/api/licenses',
    as: 'owner',
    valid: () => ({ name: 'hostile' }),
  },
  'PATCH /console/api/licenses/{id}': {
    path: (ids) => `/console/api/licenses/${ids.license}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/licenses/{id}/key': {
    path: (ids) => `/console/api/licenses/${ids.license}/key`,
    as: 'owner',
  },
  'POST /console/api/licenses/{id}/seats': {
    path: (ids) => `/console/api/licenses/${ids.license}/seats`,
    as: 'owner',
    valid: (ids) => ({ person_id: ids.person }),
  },
  'PATCH /console/api/settings/licenses': {
    path: () => '/console/api/settings/licenses',
    as: 'owner',
    valid: () => ({ release_on_offboard: false }),
  },
  'POST /console/api/assets/{id}/maintenance': {
    path: (ids) => `/console/api/assets/${ids.asset}/maintenance`,
    as: 'owner',
    valid: () => ({ title: 'hostile', type: 'repair' }),
  },
  'PATCH /console/api/maintenance/{id}': {
    path: (ids) => `/console/api/maintenance/${ids.maintenance}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/maintenance/{id}/resolve': {
    path: (ids) => `/console/api/maintenance/${ids.maintenance}/resolve`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/reminders': {
    path: () => '/console/api/reminders',
    as: 'owner',
    valid: (ids) => ({
      title: 'hostile',
      due_at: new Date(Date.now() + DAY).toISOString(),
      asset_id: ids.asset,
    }),
  },
  'PATCH /console/api/reminders/{id}': {
    path: (ids) => `/console/api/reminders/${ids.reminder}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/audits': {
    path: () => '/console/api/audits',
    as: 'owner',
    valid: (ids) => ({ name: 'hostile', location_id: ids.location }),
  },
  'POST /console/api/audits/{id}/scans': {
    path: (ids) => `/console/api/audits/${ids.audit}/scans`,
    as: 'owner',
    valid: () => ({ code: 'ALPHA-1' }),
  },
  'POST /console/api/audits/{id}/complete': {
    path: (ids) => `/console/api/audits/${ids.audit}/complete`,
    as: 'owner',
    valid: () => ({}),
  },
  // Cancels A's audit (the sweep's bodies are ignored), then a 409: cancelled.
  'POST /console/api/audits/{id}/cancel': {
    path: (ids) => `/console/api/audits/${ids.audit}/cancel`,
    as: 'owner',
  },
  // The body is a CSV file: every JSON one is a 415 naming text/csv (csv-upload.ts).
  'POST /console/api/imports': {
    path: () => '/console/api/imports?type=people',
    as: 'owner',
  },
  // Starts A's empty import (nothing to write), then a 409: not planned any more.
  'POST /console/api/imports/{id}/start': {
    path: (ids) => `/console/api/imports/${ids.import}/start`,
    as: 'owner',
  },
  'POST /console/api/imports/{id}/cancel': {
    path: (ids) => `/console/api/imports/${ids.import}/cancel`,
    as: 'owner',
  },
  'POST /console/api/locations': {
    path: () => '/console/api/locations',
    as: 'owner',
    valid: () => ({ name: 'hostile' }),
  },
  'PATCH /console/api/locations/{id}': {
    path: (ids) => `/console/api/locations/${ids.location}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/categories': {
    path: () => '/console/api/categories',
    as: 'owner',
    valid: () => ({ name: 'hostile' }),
  },
  'PATCH /console/api/categories/{id}': {
    path: (ids) => `/console/api/categories/${ids.category}`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/requests': {
    path: () => '/console/api/requests',
    as: 'owner',
    valid: (ids) => ({ person_id: ids.person, asset_id: ids.asset }),
  },
  'POST /console/api/requests/{id}/approve': {
    path: (ids) => `/console/api/requests/${ids.request}/approve`,
    as: 'owner',
    valid: () => ({}),
  },
  'POST /console/api/requests/{id}/reject': {
    path: (ids) => `/console/api/requests/${ids.request}/reject`,
    as: 'owner',
    valid: () => ({ note: 'hostile' }),
  },
  // No body: the sweep's JSON bodies are ignored and each makes the owner a new feed URL
  // (the sweep's session signed in by link a moment ago, so no password is asked).
  'POST /console/api/calendar-feed': {
    path: () => '/console/api/calendar-feed',
    as: 'owner',
  },
  'POST /console/api/bookings': {
    path: () => '/console/api/bookings',
    as: 'owner',
    valid: (ids) => ({
      person_id: ids.person,
      asset_ids: [ids.asset],
      starts_at: new Date(Date.now() + 3 * DAY).toISOString(),
      ends_at: new Date(Date.now() + 4 * DAY).toISOString(),
    }),
  },
  'PATCH /console/api/bookings/{id}': {
    path: (ids) => `/console/api/bookings/${ids.booking}`,
    as: 'owner',
    valid: () => ({}),
  },
  // Confirmed already: a 409 (the sweep sends it a JSON body it ignores).
  'POST /console/api/bookings/{id}/confirm': {
    path: (ids) => `/console/api/bookings/${ids.booking}/confirm`,
    as: 'owner',
  },
  'POST /console/api/bookings/{id}/reject': {
    path: (ids) => `/console/api/bookings/${ids.booking}/reject`,
    as: 'owner',
    valid: () => ({ note: 'hostile' }),
  },
  'POST /console/api/bookings/{id}/cancel': {
    path: (ids) => `/console/api/bookings/${ids.booking}/cancel`,
    as: 'owner',
    valid: () => ({}),
  },
  // Hands A's booking out early (the sweep's bodies are ignored), then a 409: handed out.
  'POST /console/api/bookings/{id}/check-out': {
    path: (ids) => `/console/api/bookings/${ids.booking}/check-out`,
    as: 'owner',
  },
  'POST /console/api/bookings/{id}/check-in': {
    path: (ids) => `/console/api/bookings/${ids.booking}/check-in`,
    as: 'owner',
    valid: () => ({}),
  },
  'PATCH /console/api/settings/bookings': {
    path: () => '/console/api/settings/bookings',
    as: 'owner',
    valid: () => ({ no_show_grace_minutes: 60 }),
  },
};

/** Ids no route may answer anything but a 404 or 400 to (sent percent-encoded, as one segment). */
const MALFORMED_IDS = ['../../etc/passwd', 'x'.repeat(500), '\u0000', '%00', "' OR 1=1 --", '☃'];

/** A body over the 1 MiB limit. */
const OVERSIZED = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
const HUGE = 'x'.repeat(100_000);

interface HostileBody {
  what: string;
  body: string | object;
  contentType?: string;
  /** The status the gateway answers it with. */
  status: number;
  /** A word the message must contain (the field it names, or what is wrong). */
  names?: string;
}

/** Bodies no route may accept, whatever it expects. */
const MALFORMED_BODIES: HostileBody[] = [
  { what: 'truncated JSON', body: '{"name": "a', status: 400, names: 'JSON' },
  { what: 'text that is not JSON', body: 'name=a&scope=write', status: 400, names: 'JSON' },
  {
    what: 'a __proto__ key',
    body: '{"__proto__": {"admin": true}}',
    status: 400,
    names: '__proto__',
  },
  { what: 'nesting 40 deep', body: `${'['.repeat(40)}${']'.repeat(40)}`, status: 400 },
  { what: 'a body over 1 MiB', body: OVERSIZED, status: 413, names: '1 MiB' },
  {
    what: 'a form-encoded body',
    body: 'name=a',
    contentType: 'application/x-www-form-urlencoded',
    status: 415,
    names: 'application/json',
  },
  { what: 'plain text', body: 'hello', contentType: 'text/plain', status: 415 },
];

/**
 * Bodies that are JSON but not what a route with a body takes, derived from its schema in the
 * document: each field of the wrong type, too long, or (a list) too long or with a too-long
 * item, added to `valid`; and bodies that are not an object at all.
 */
function wrongBodies(schema: Schema, valid: Record<string, unknown>): HostileBody[] {
  const bodies: HostileBody[] = [
    { what: 'a JSON array', body: [], status: 400, names: 'object' },
    { what: 'an array of the valid body', body: [valid], status: 400, names: 'object' },
    { what: 'a JSON string', body: '"text"', status: 400, names: 'object' },
    { what: 'JSON null', body: 'null', status: 400 },
    { what: 'a JSON number', body: '42', status: 400, names: 'object' },
    { what: 'an empty body', body: '', status: 400 },
    {
      what: 'an unknown field',
      body: { ...valid, is_admin: true },
      status: 400,
      names: 'is_admin',
    },
  ];
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const types = property.anyOf?.map((option) => option.type) ?? [property.type];
    const wrong = types.includes('string') ? 12345 : types.includes('array') ? 'all' : 'yes';
    const withField = (value: unknown) => ({ ...valid, [field]: value });
    bodies.push({
      what: `${field} of the wrong type`,
      body: withField(wrong),
      status: 400,
      names: field,
    });
    if (types.includes('string')) {
      bodies.push(
        { what: `${field} of 100 KB`, body: withField(HUGE), status: 400, names: field },
        { what: `${field} with a NUL`, body: withField('a\u0000b'), status: 400, names: field },
      );
    }
    if (types.includes('array')) {
      bodies.push(
        {
          what: `${field} of 10,000 items`,
          body: withField(new Array(10_000).fill('asset.created')),
          status: 400,
          names: field,
        },
        {
          what: `${field} with an item of 100 KB`,
          body: withField([HUGE]),
          status: 400,
          names: field,
        },
      );
    }
  }
  return bodies;
}

/** The error body: a 4xx with `{statusCode, error, message}` and a message a person can read. */
function expectErrorBody(response: ApiResponse<unknown>, context: string): ErrorBody {
  const body = response.body as ErrorBody;
  const shown = `${context} → ${response.status} ${response.text.slice(0, 300)}`;
  const problems = [
    response.status >= 400 && response.status < 500 ? null : 'not a 4xx',
    typeof body === 'object' && body !== null ? null : 'no JSON body',
    Object.keys(body ?? {})
      .sort()
      .join() === 'error,message,statusCode'
      ? null
      : 'other fields',
    body?.statusCode === response.status ? null : 'statusCode differs from the status',
    typeof body?.error === 'string' && body.error !== '' ? null : 'no error',
    typeof body?.message === 'string' && /\S/.test(body.message) ? null : 'no message',
  ].filter((problem) => problem !== null);
  expect({ shown, problems }).toEqual({ shown, problems: [] });
  return body;
}

/**
 * A console client that reports every CSRF token and cookie it has held once a request used
 * them: the session id and the CSRF secret and token, which no log line may carry.
 */
class RecordingClient extends ConsoleClient {
  constructor(
    baseUrl: string,
    private readonly report: (what: string, value: string) => void,
  ) {
    super(baseUrl);
  }

  override async request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const response = await super.request<T>(method, path, body, headers);
    if (this.csrfToken) this.report('CSRF token', this.csrfToken);
    for (const name of ['custodian_session', 'custodian_csrf']) {
      const value = this.cookie(name);
      if (value) this.report(`${name} cookie`, decodeURIComponent(value));
    }
    return response;
  }
}

const LINK = /\/console\/sign-in\/link#token=([A-Za-z0-9_-]+)/;
const INVITATION = /\/console\/invitations\/accept#token=([A-Za-z0-9_-]+)/;

describe('console isolation, hostile input and secrets in logs (e2e)', () => {
  const stack = new TestStack({
    env: {
      // Everything the apps can say is logged, so that a leaked secret has every chance to show.
      LOG_LEVEL: 'trace',
      SIGN_IN_LINKS_PER_ACCOUNT: '100',
      SIGN_IN_FAILURES_PER_ACCOUNT: '100',
      UNAUTHENTICATED_RATE_PER_MINUTE: '100000',
      // The sweeps send hundreds of writes a minute from one session: the console's write
      // limits (counted for refused bodies too) are not what they test.
      CONSOLE_WRITES_PER_MINUTE: '100000',
      CONSOLE_WORKSPACE_WRITES_PER_MINUTE: '100000',
      CONSOLE_PINGS_PER_MINUTE: '10000',
      DELIVERY_INTERVAL_MS: '50',
    },
  });
  const mail = new MailSink();
  const receiver = new WebhookReceiver();
  const ownerA = 'ada@a.example';
  const ownerB = 'bob@b.example';
  /** Every secret seen during the run, with what it is: none may be in a log. */
  const secrets = new Map<string, string>();
  let base: string;
  let a: ConsoleClient;
  let b: ConsoleClient;
  let idsA: Ids;
  let idsB: Ids;
  let keyB: string;
  let endpointB: ConsoleEndpoint;
  let secretB: string;

  function remember(what: string, value: string | undefined): void {
    if (!value) throw new Error(`no ${what} to remember`);
    if (!secrets.has(value)) secrets.set(value, what);
  }

  async function newClient(): Promise<ConsoleClient> {
    const client = new RecordingClient(base, remember);
    await client.session();
    return client;
  }

  /** Signs `email` in through an e-mailed link, as the console does. */
  async function signedIn(email: string): Promise<ConsoleClient> {
    const client = await newClient();
    const before = mail.countTo(email);
    expect((await client.post('/console/api/sign-in/link', { email })).status).toBe(202);
    await eventually(() =>
      mail.countTo(email) > before ? Promise.resolve() : Promise.reject(new Error('no mail')),
    );
    const [, token] = await mail.latest(email, LINK);
    remember('sign-in link token', token);
    const signIn = await client.post<ConsoleSession>('/console/api/sign-in/token', { token });
    expect(signIn.status).toBe(200);
    await client.session();
    return client;
  }

  /** A workspace with an owner signed in, a key, an endpoint at `hook` and one delivered ping. */
  async function workspace(
    name: string,
    owner: string,
    hook: string,
  ): Promise<{
    client: ConsoleClient;
    ids: Ids;
    key: string;
    endpoint: CreatedConsoleEndpoint;
  }> {
    const created = await stack.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name,
      plan: 'pro',
      owner_email: owner,
    });
    const client = await signedIn(owner);
    const key = await client.post<CreatedConsoleKey>('/console/api/keys', {
      name: `${name} deploys`,
      scope: 'write',
    });
    expect(key.status).toBe(201);
    remember(`API key of ${name}`, key.body.key);
    const endpoint = await client.post<CreatedConsoleEndpoint>('/console/api/webhooks', {
      url: receiver.url(hook),
      // An event nothing here causes (no check-out falls due): the setup's and the sweeps'
      // asset and person writes must not add deliveries to the log.
      events: ['assignment.overdue'],
      description: `${name} receiver`,
    });
    expect(endpoint.status).toBe(201);
    remember(`signing secret of ${name} at creation`, endpoint.body.secret);
    const ping = await client.post<TestPing>(`/console/api/webhooks/${endpoint.body.id}/test`);
    expect(ping.status).toBe(202);
    await eventually(async () => {
      const detail = await client.get<DeliveryDetail>(
        `/console/api/deliveries/${ping.body.delivery_id}`,
      );
      if (detail.body.status !== 'delivered') throw new Error(`ping ${detail.body.status}`);
    });
    const location = await client.post<{ id: string }>('/console/api/locations', {
      name: `${name} office`,
    });
    expect(location.status).toBe(201);
    const category = await client.post<{ id: string }>('/console/api/categories', {
      name: `${name} laptops`,
    });
    expect(category.status).toBe(201);
    const asset = await client.post<Asset>('/console/api/assets', {
      name: `${name} laptop`,
      asset_tag: `${name.toUpperCase()}-1`,
      location_id: location.body.id,
      category_id: category.body.id,
    });
    expect(asset.status).toBe(201);
    const audit = await client.post<{ id: string }>('/console/api/audits', {
      name: `${name} stock-take`,
      location_id: location.body.id,
    });
    expect(audit.status).toBe(201);
    const imported = await client.request<{ id: string }>(
      'POST',
      `/console/api/imports?type=people&filename=${name}.csv`,
      'full_name,email\r\n',
      { 'content-type': 'text/csv' },
    );
    expect(imported.status).toBe(202);
    const binned = await client.post<Asset>('/console/api/assets', { name: `${name} old phone` });
    expect(binned.status).toBe(201);
    expect((await client.delete(`/console/api/assets/${binned.body.id}`)).status).toBe(200);
    const person = await client.post<PersonDetail>('/console/api/people', {
      full_name: `${name} hire`,
    });
    expect(person.status).toBe(201);
    const request = await client.post<{ id: string }>('/console/api/requests', {
      person_id: person.body.id,
      asset_id: asset.body.id,
    });
    expect(request.status).toBe(201);
    const license = await client.post<{ id: string }>('/console/api/licenses', {
      name: `${name} licence`,
      seats: 2,
      product_key: `${name.toUpperCase()}-KEY`,
    });
    expect(license.status).toBe(201);
    const maintenance = await client.post<{ id: string }>(
      `/console/api/assets/${asset.body.id}/maintenance`,
      { title: `${name} repair`, type: 'repair' },
    );
    expect(maintenance.status).toBe(201);
    const reminder = await client.post<{ id: string }>('/console/api/reminders', {
      title: `${name} service`,
      due_at: new Date(Date.now() + DAY).toISOString(),
      repeat: { every: 1, unit: 'month' },
      asset_id: asset.body.id,
    });
    expect(reminder.status).toBe(201);
    const booking = await client.post<Booking>('/console/api/bookings', {
      person_id: person.body.id,
      asset_ids: [asset.body.id],
      starts_at: new Date(Date.now() + DAY).toISOString(),
      ends_at: new Date(Date.now() + DAY + 3_600_000).toISOString(),
    });
    expect([booking.status, booking.body.status]).toEqual([201, 'confirmed']);
    const invited = await httpRequest<{ id: string }>(`${base}/api/v1/members`, {
      method: 'POST',
      headers: { 'x-api-key': key.body.key },
      body: { email: `invited@${name.toLowerCase()}.example` },
    });
    expect(invited.status).toBe(201);
    const sessions =
      await client.get<Array<{ id: string; current: boolean }>>('/console/api/sessions');
    const session = sessions.body.find((each) => each.current)?.id ?? '';
    expect(session).not.toBe('');
    return {
      client,
      ids: {
        workspace: created.id,
        key: key.body.id,
        endpoint: endpoint.body.id,
        delivery: ping.body.delivery_id,
        asset: asset.body.id,
        deletedAsset: binned.body.id,
        member: invited.body.id,
        person: person.body.id,
        request: request.body.id,
        booking: booking.body.id,
        license: license.body.id,
        maintenance: maintenance.body.id,
        reminder: reminder.body.id,
        location: location.body.id,
        category: category.body.id,
        audit: audit.body.id,
        import: imported.body.id,
        session,
      },
      key: key.body.key,
      endpoint: endpoint.body,
    };
  }

  beforeAll(async () => {
    await Promise.all([mail.start(), receiver.start()]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    Object.assign(stack.env, { SMTP_URL: mail.url, PORT: String(port), PUBLIC_BASE_URL: base });
    await stack.start();
    const [setupA, setupB] = await Promise.all([
      workspace('Alpha', ownerA, '/alpha'),
      workspace('Bravo', ownerB, '/bravo'),
    ]);
    ({ client: a, ids: idsA } = setupA);
    ({ client: b, ids: idsB, key: keyB } = setupB);
    endpointB = setupB.endpoint;
    secretB = setupB.endpoint.secret;
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
    await Promise.all([mail.stop(), receiver.stop()]);
  });

  it('has a sweep entry for every console route with an id, and for every write route', () => {
    const withId = OPERATIONS.filter((operation) => operation.includes('{'));
    expect(withId.sort()).toEqual(Object.keys(ID_ROUTES).sort());
    const writes = OPERATIONS.filter((operation) =>
      WRITE_METHODS.has(operation.split(' ')[0]!.toLowerCase()),
    );
    expect(writes.sort()).toEqual(Object.keys(WRITE_ROUTES).sort());
    // Sanity: the document is the console's whole one, not an empty or a stale file.
    expect(Object.keys(DOCUMENT.paths).length).toBeGreaterThanOrEqual(31);
    expect(Object.keys(DOCUMENT.paths)).toEqual(
      expect.arrayContaining(['/console/api/activity', '/console/api/members/{id}/invitation']),
    );
  });

  it("answers every id route called with another workspace's ids as not found", async () => {
    for (const [operation, call] of Object.entries(ID_ROUTES)) {
      const [method, route] = operation.split(' ') as [string, string];
      const { id, body } = call(idsB);
      const response = await a.request<ErrorBody>(method, route.replace('{id}', id), body);
      expect({ operation, status: response.status }).toEqual({ operation, status: 404 });
      expectErrorBody(response, `${operation} with B's id`);
      // Not found says nothing of the record: not its URL, not its secret.
      expect(response.text).not.toContain(endpointB.url);
      expect(response.text).not.toContain(secretB);
    }
    // A workspace the session's e-mail is no member of looks like one that does not exist.
    const picked = await a.post<ErrorBody>('/console/api/session/workspace', {
      workspace_id: idsB.workspace,
    });
    expect(picked.status).toBe(404);
    expectErrorBody(picked, "picking B's workspace");
    expect((await a.session<ConsoleSession>()).body.workspace?.id).toBe(idsA.workspace);
  });

  it("lists none of another workspace's records, and bulk routes touch none", async () => {
    const foreign = [
      idsB.key,
      idsB.endpoint,
      idsB.delivery,
      endpointB.url,
      idsB.asset,
      idsB.deletedAsset,
      idsB.member,
      idsB.person,
      idsB.booking,
      idsB.import,
    ];
    const noneOfB = (response: ApiResponse<unknown>, what: string) => {
      for (const id of foreign)
        expect({ what, leaked: response.text.includes(id) }).toEqual({ what, leaked: false });
    };

    const keys = await a.get<ConsoleKey[]>('/console/api/keys');
    expect(keys.status).toBe(200);
    expect(keys.body.map((k) => k.id)).toEqual([idsA.key]);
    noneOfB(keys, 'GET keys');

    const endpoints = await a.get<ConsoleEndpoint[]>('/console/api/webhooks');
    expect(endpoints.status).toBe(200);
    expect(endpoints.body.map((e) => e.id)).toEqual([idsA.endpoint]);
    noneOfB(endpoints, 'GET webhooks');

    const log = await a.get<DeliveryLogPage>('/console/api/deliveries');
    expect(log.status).toBe(200);
    expect(log.body.data.map((d) => d.delivery_id)).toEqual([idsA.delivery]);
    noneOfB(log, 'GET deliveries');

    // Filtered on B's endpoint: not found, as that id is anywhere else (the message names the
    // id the client sent, nothing else of B's).
    for (const query of [
      `endpoint=${idsB.endpoint}`,
      `endpoint=${idsB.endpoint}&status=delivered`,
    ]) {
      const filtered = await a.get<ErrorBody>(`/console/api/deliveries?${query}`);
      expect({ query, status: filtered.status }).toEqual({ query, status: 404 });
      expectErrorBody(filtered, `GET deliveries?${query}`);
      noneOfB(
        { ...filtered, text: filtered.text.replaceAll(idsB.endpoint, '') },
        `GET deliveries?${query}`,
      );
    }
    // A parameter the log does not know is no filter at all: A's own deliveries, none of B's.
    const unknownFilter = await a.get<DeliveryLogPage>(
      `/console/api/deliveries?endpoint_id=${idsB.endpoint}`,
    );
    expect(unknownFilter.status).toBe(200);
    noneOfB(unknownFilter, 'GET deliveries?endpoint_id=');

    const resent = await a.post<ErrorBody>('/console/api/deliveries/resend', {
      endpoint: idsB.endpoint,
    });
    expect(resent.status).toBe(404);
    expectErrorBody(resent, "POST deliveries/resend on B's endpoint");
    noneOfB({ ...resent, text: resent.text.replaceAll(idsB.endpoint, '') }, 'resend on B');
    const assets = await a.get<Page<AssetSummary>>('/console/api/assets');
    expect(assets.status).toBe(200);
    expect(assets.body.data.map((asset) => asset.id)).toEqual([idsA.asset]);
    noneOfB(assets, 'GET assets');
    const bin = await a.get<DeletedAsset[]>('/console/api/assets/deleted');
    expect(bin.body.map((asset) => asset.id)).toEqual([idsA.deletedAsset]);
    noneOfB(bin, 'GET assets/deleted');
    const people = await a.get<Page<PersonSummary>>('/console/api/people');
    expect(people.body.data.map((person) => person.id)).toEqual([idsA.person]);
    noneOfB(people, 'GET people');
    const bookings = await a.get<Page<Booking>>('/console/api/bookings');
    expect(bookings.body.data.map((booking) => booking.id)).toEqual([idsA.booking]);
    noneOfB(bookings, 'GET bookings');
    const filtered = await a.get<ErrorBody | Page<Booking>>(
      `/console/api/bookings?asset_id=${idsB.asset}`,
    );
    expect(filtered.status).toBeLessThan(500);
    noneOfB({ ...filtered, text: filtered.text.replaceAll(idsB.asset, '') }, 'bookings of B');
    const imports = await a.get<Page<{ id: string }>>('/console/api/imports');
    expect(imports.body.data.map((job) => job.id)).toEqual([idsA.import]);
    noneOfB(imports, 'GET imports');
    const members = await a.get<Array<{ id: string }>>('/console/api/members');
    expect(members.body.map((member) => member.id)).toContain(idsA.member);
    noneOfB(members, 'GET members');
    // A bulk change of B's assets (one in B's bin) answers them as not found, nothing more.
    const bulk = await a.post<BulkAssetReply>('/console/api/assets/bulk', {
      ids: [idsB.asset, idsB.deletedAsset],
      action: 'delete',
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.results.map((result) => result.outcome)).toEqual(['not_found', 'not_found']);
    noneOfB(
      {
        ...bulk,
        text: bulk.text.replaceAll(idsB.asset, '').replaceAll(idsB.deletedAsset, ''),
      },
      "bulk delete of B's assets",
    );
    const scanned = await a.post<ErrorBody>('/console/api/assets/scan', { code: 'BRAVO-1' });
    expect(scanned.status).toBe(404);
    noneOfB(scanned, "scanning B's tag");

    const resentAll = await a.post<{ resent: number }>('/console/api/deliveries/resend', {});
    expect(resentAll.status).toBe(202);
    expect(resentAll.body.resent).toBe(0);
  });

  it('leaves every record of the other workspace as it was', async () => {
    const ping = await httpRequest(`${base}/api/v1/ping`, { headers: { 'x-api-key': keyB } });
    expect(ping.status).toBe(200);

    const keys = await b.get<ConsoleKey[]>('/console/api/keys');
    expect(keys.body).toEqual([expect.objectContaining({ id: idsB.key, revoked_at: null })]);

    const endpoint = await b.get<ConsoleEndpoint>(`/console/api/webhooks/${idsB.endpoint}`);
    expect(endpoint.body).toMatchObject({
      url: endpointB.url,
      description: endpointB.description,
      enabled: true,
      disabled_reason: null,
      secret_rotation: null,
    });
    const revealed = await b.post<SigningSecret>(
      `/console/api/webhooks/${idsB.endpoint}/secret/reveal`,
    );
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ secret: secretB, previous: null });

    const asset = await b.get<Asset>(`/console/api/assets/${idsB.asset}`);
    expect(asset.body).toMatchObject({ name: 'Bravo laptop', condition: null });
    const bin = await b.get<DeletedAsset[]>('/console/api/assets/deleted');
    expect(bin.body.map((deleted) => deleted.id)).toEqual([idsB.deletedAsset]);
    const person = await b.get<PersonDetail>(`/console/api/people/${idsB.person}`);
    expect(person.body).toMatchObject({ full_name: 'Bravo hire', status: 'active' });
    const booking = await b.get<Booking>(`/console/api/bookings/${idsB.booking}`);
    expect(booking.body).toMatchObject({ status: 'confirmed', notes: null });

    const log = await b.get<DeliveryLogPage>('/console/api/deliveries');
    expect(log.body.data).toEqual([
      expect.objectContaining({ delivery_id: idsB.delivery, status: 'delivered', attempts: 1 }),
    ]);
    const detail = await b.get<DeliveryDetail>(`/console/api/deliveries/${idsB.delivery}`);
    expect(detail.body.attempt_log).toHaveLength(1);
    // No resend, no test ping: nothing pending for B, so nothing more will reach its receiver.
    const pending = await stack.query<{ count: string }>(
      `SELECT count(*) FROM delivery.deliveries WHERE workspace_id = $1 AND status = 'pending'`,
      [idsB.workspace],
    );
    expect(pending[0]?.count).toBe('0');
    expect(receiver.on('/bravo')).toHaveLength(1);
  });

  it('answers hostile bodies on every write route with a 4xx and the error body', async () => {
    const signedOut = await newClient();
    const seen: string[] = [];
    for (const [operation, target] of Object.entries(WRITE_ROUTES)) {
      const method = operation.split(' ')[0]!;
      const client = target.as === 'owner' ? a : signedOut;
      const url = target.path(idsA);
      const schema = bodySchema(operation);
      const send = async (hostile: HostileBody) => {
        for (let tries = 1; ; tries++) {
          try {
            return await client.request<ErrorBody>(method, url, hostile.body, {
              'content-type': hostile.contentType ?? 'application/json',
            });
          } catch (error) {
            // The gateway answers 413 from the headers and closes the connection: a client
            // still writing the body past 1 MiB may get EPIPE instead of the answer (a race of
            // the socket, not of the gateway). Sent again, the answer is read first.
            const cause = (error as { cause?: { code?: string } }).cause?.code;
            if (hostile.body !== OVERSIZED || tries === 3 || cause !== 'EPIPE') throw error;
          }
        }
      };

      const wrong = schema ? wrongBodies(schema, target.valid?.(idsA) ?? {}) : [];
      for (const hostile of [...MALFORMED_BODIES, ...wrong]) {
        const response = await send(hostile);
        const context = `${operation} with ${hostile.what}`;
        seen.push(context);
        expect({ context, status: response.status }).toEqual({ context, status: hostile.status });
        const body = expectErrorBody(response, context);
        if (hostile.names && !body.message.includes(hostile.names)) {
          throw new Error(
            `${context}: the message "${body.message}" does not name ${hostile.names}`,
          );
        }
      }
      if (!schema) {
        // A route without a body ignores a JSON one: never a 5xx, an error has the error body.
        for (const body of [[], { is_admin: true }]) {
          const response = await client.request<ErrorBody>(method, url, body);
          expect({ operation, fine: response.status < 500 }).toEqual({ operation, fine: true });
          if (response.status >= 400) expectErrorBody(response, `${operation} with a body`);
        }
      }
    }
    expect(seen.length).toBeGreaterThan(200);
    // Still signed in as A's owner, in A: no hostile body changed the session.
    expect((await a.session<ConsoleSession>()).body).toMatchObject({
      signed_in: true,
      workspace: { id: idsA.workspace },
    });
    // Hundreds of requests, one after another.
  }, 30_000);

  it('answers malformed ids with 404 or 400 and the error body, never a 5xx', async () => {
    for (const [operation, call] of Object.entries(ID_ROUTES)) {
      const [method, route] = operation.split(' ') as [string, string];
      const { body } = call(idsA);
      for (const id of MALFORMED_IDS) {
        const response = await a.request<ErrorBody>(
          method,
          route.replace('{id}', encodeURIComponent(id)),
          body,
        );
        const context = `${operation} with id ${JSON.stringify(id.slice(0, 20))}`;
        expect({ context, status: [400, 404].includes(response.status) }).toEqual({
          context,
          status: true,
        });
        expectErrorBody(response, context);
      }
      // Broken percent-encoding in the path: refused by the router, in the same words.
      const broken = await a.request<ErrorBody>(method, route.replace('{id}', '%E0%A4%A'), body);
      expect({ operation, status: broken.status }).toEqual({ operation, status: 400 });
      expectErrorBody(broken, `${operation} with broken percent-encoding`);
    }
    // The delivery log's filters, malformed: each named in a 400; an endpoint that is not one
    // of the workspace's is not found, whatever it looks like.
    for (const [query, status] of [
      ['limit=abc', 400],
      ['limit=0', 400],
      ['limit=100000', 400],
      ['status=bogus', 400],
      ['before=garbage', 400],
      ['from=yesterday', 400],
      ['to=2026-13-45T99:00:00Z', 400],
      ['limit=1&limit=2', 400],
      [`event=${'x'.repeat(500)}`, 400],
      ['event=%00', 400],
      ['endpoint=..%2F..%2Fetc', 404],
      ['endpoint=%00', 400],
      [`endpoint=${'x'.repeat(500)}`, 400],
    ] as const) {
      const response = await a.get<ErrorBody>(`/console/api/deliveries?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status });
      expectErrorBody(response, `GET deliveries?${query}`);
    }
    // Hundreds of requests, one after another.
  }, 30_000);

  it('writes no secret to any log line', async () => {
    // More secrets of the kinds the logs could carry: a rotated signing secret, a password set
    // and used (and a wrong one), an invitation's token, and the key of A, revoked.
    const rotated = await a.post<SigningSecret>(
      `/console/api/webhooks/${idsA.endpoint}/secret/rotate`,
      { overlap_hours: 1 },
    );
    expect(rotated.status).toBe(200);
    remember('rotated signing secret of Alpha', rotated.body.secret);
    const password = `correct horse ${Math.random().toString(36).slice(2)}`;
    expect((await a.put('/console/api/account/password', { password })).status).toBe(204);
    remember('password', password);
    const byPassword = await newClient();
    expect(
      (await byPassword.post('/console/api/sign-in/password', { email: ownerA, password })).status,
    ).toBe(200);
    await byPassword.session();
    const wrong = await byPassword.post('/console/api/sign-in/password', {
      email: ownerA,
      password: `${password} nope`,
    });
    expect(wrong.status).toBe(401);
    remember('wrong password', `${password} nope`);

    const invited = await httpRequest(`${base}/api/v1/members`, {
      method: 'POST',
      headers: { 'x-api-key': keyB },
      body: { email: 'cy@b.example', role: 'member' },
    });
    expect(invited.status).toBe(201);
    const [, invitation] = await mail.latest('cy@b.example', INVITATION);
    remember('invitation token', invitation);
    const cy = await newClient();
    expect((await cy.post('/console/api/invitations/accept', { token: invitation })).status).toBe(
      200,
    );
    await cy.session();
    expect((await cy.post('/console/api/sign-out')).status).toBe(204);
    expect((await a.delete<ConsoleKey>(`/console/api/keys/${idsA.key}`)).status).toBe(200);

    const logs = stack.logs();
    const all = Object.values(logs).join('\n');
    // The check means something only if the apps logged: every request is a line at trace.
    expect(Object.keys(logs).sort()).toEqual(['gateway.log', 'register.log', 'worker.log']);
    expect(all).toContain('/console/api/webhooks');
    expect(all).toContain('/console/api/sign-in/token');

    const leaks: string[] = [];
    for (const [value, what] of secrets) {
      for (const [file, text] of Object.entries(logs)) {
        const line = text.split('\n').find((candidate) => candidate.includes(value));
        if (line)
          leaks.push(`${what} in ${file}: ${line.replaceAll(value, '<SECRET>').slice(0, 400)}`);
      }
    }
    expect(leaks).toEqual([]);
    // Each client's cookies and CSRF tokens, the link tokens, keys, secrets, passwords.
    expect(new Set(secrets.values())).toEqual(
      new Set([
        'sign-in link token',
        'API key of Alpha',
        'API key of Bravo',
        'signing secret of Alpha at creation',
        'signing secret of Bravo at creation',
        'rotated signing secret of Alpha',
        'password',
        'wrong password',
        'invitation token',
        'CSRF token',
        'custodian_session cookie',
        'custodian_csrf cookie',
      ]),
    );
    expect(secrets.size).toBeGreaterThan(20);
  });
});
