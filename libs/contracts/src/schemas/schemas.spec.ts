import type { TSchema } from '@sinclair/typebox';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { EVENT_KEYS, PING_EVENT, type DeliverableEvent } from '../events';
import { errorBody, errorBodyForCode, type DomainErrorCode } from '../errors';
import {
  API_SCHEMAS,
  ASSET_EXAMPLE,
  AssetListSchema,
  EMITTED_EVENTS,
  EVENT_DATA_SCHEMAS,
  HealthSchema,
  InvitationSchema,
  MemberListSchema,
  PersonListSchema,
  eventEnvelopeSchema,
} from './index';

/** As the e2e tests and the OpenAPI document use them: draft 2020-12, formats, not strict. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

function compile(schema: TSchema): ValidateFunction {
  return ajv.compile(schema);
}

function errorsOf(schema: TSchema, value: unknown): string {
  const validate = compile(schema);
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** Every nested schema object, for structural checks. */
function* walk(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* walk(item);
  else if (typeof value === 'object' && value !== null) {
    yield value as Record<string, unknown>;
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'examples') yield* walk(child);
    }
  }
}

const DELIVERABLE: DeliverableEvent[] = [...EVENT_KEYS, PING_EVENT];
const envelopes = DELIVERABLE.map((key) => [key, eventEnvelopeSchema(key)] as const);

/** Response bodies that are not components of the document (bare arrays, health, CLI). */
const OTHER_SCHEMAS: Record<string, TSchema> = {
  AssetList: AssetListSchema,
  PersonList: PersonListSchema,
  MemberList: MemberListSchema,
  Health: HealthSchema,
  Invitation: InvitationSchema,
};

describe('API_SCHEMAS and the other response schemas', () => {
  const entries = Object.entries({ ...API_SCHEMAS, ...OTHER_SCHEMAS }) as Array<[string, TSchema]>;

  it('names the components of every JSON body of the /api/v1 routes', () => {
    expect(Object.keys(API_SCHEMAS).sort()).toEqual(
      [
        'Asset',
        'AssetPage',
        'AssetSummary',
        'Error',
        'Member',
        'Person',
        'PersonPage',
        'PersonSummary',
        'Ping',
      ].sort(),
    );
  });

  it.each(entries)(
    '%s compiles under draft 2020-12 and carries title, description, example',
    (name, schema) => {
      expect(() => compile(schema)).not.toThrow();
      expect(schema.title).toBe(name);
      expect(schema.description).toEqual(expect.any(String));
      expect(schema.examples).toEqual([expect.anything()]);
    },
  );

  it.each(entries)('%s: each example validates', (_name, schema) => {
    for (const example of schema.examples as unknown[]) expect(errorsOf(schema, example)).toBe('');
  });

  it.each(entries)('%s is self-contained and survives JSON (no $id, no $ref)', (_name, schema) => {
    const json = JSON.parse(JSON.stringify(schema)) as TSchema;
    for (const node of walk(json)) {
      expect(node).not.toHaveProperty('$id');
      expect(node).not.toHaveProperty('$ref');
    }
    for (const example of schema.examples as unknown[]) expect(errorsOf(json, example)).toBe('');
  });

  it('closes the objects we control: an undocumented field fails, custom_fields stay open', () => {
    expect(errorsOf(API_SCHEMAS.Asset, { ...ASSET_EXAMPLE, secret: 1 })).toMatch(
      /additional properties/,
    );
    expect(
      errorsOf(API_SCHEMAS.Asset, {
        ...ASSET_EXAMPLE,
        custom_fields: { anything: { nested: [1, 'two'] } },
      }),
    ).toBe('');
    expect(
      errorsOf(API_SCHEMAS.Asset, {
        ...ASSET_EXAMPLE,
        category: { ...ASSET_EXAMPLE.category, extra: true },
      }),
    ).toMatch(/additional properties/);
  });

  it('refuses timestamps that are not UTC with milliseconds and Z', () => {
    for (const updated_at of ['2026-11-22T10:15:00Z', '2026-11-22T10:15:00.000+01:00', 'soon']) {
      expect(errorsOf(API_SCHEMAS.Asset, { ...ASSET_EXAMPLE, updated_at })).not.toBe('');
    }
  });

  it('describes every error body the code builds', () => {
    const codes: DomainErrorCode[] = [
      'invalid_input',
      'unauthenticated',
      'forbidden',
      'limit_reached',
      'not_found',
      'conflict',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
      'unavailable',
      'timeout',
      'internal',
    ];
    for (const code of codes) {
      expect(errorsOf(API_SCHEMAS.Error, errorBodyForCode(code, 'x'))).toBe('');
    }
    for (const status of [400, 404, 405, 406, 413, 418, 500, 502, 599]) {
      expect(errorsOf(API_SCHEMAS.Error, errorBody(status, 'x'))).toBe('');
    }
    expect(errorsOf(API_SCHEMAS.Error, { ...errorBody(400, 'x'), detail: 'x' })).not.toBe('');
  });

  it('ping scopes are ["read"] or ["read", "write"]', () => {
    const [example] = API_SCHEMAS.Ping.examples as [Record<string, unknown>];
    expect(errorsOf(API_SCHEMAS.Ping, { ...example, scopes: ['read'] })).toBe('');
    for (const scopes of [[], ['write'], ['read', 'read'], ['read', 'write', 'admin']]) {
      expect(errorsOf(API_SCHEMAS.Ping, { ...example, scopes })).not.toBe('');
    }
  });
});

describe('EVENT_DATA_SCHEMAS', () => {
  it('has exactly the 41 catalog keys and ping', () => {
    expect(EVENT_KEYS).toHaveLength(41);
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual([...DELIVERABLE].sort());
  });

  it.each(DELIVERABLE)('%s data compiles, is documented, and its examples validate', (key) => {
    const schema: TSchema = EVENT_DATA_SCHEMAS[key];
    expect(() => compile(schema)).not.toThrow();
    expect(schema.title).toBe(`${key} data`);
    const emitted = (EMITTED_EVENTS as readonly string[]).includes(key);
    expect(schema.description).toEqual(expect.any(String));
    expect(String(schema.description).includes('not emitted yet')).toBe(!emitted);
    expect((schema.examples as unknown[]).length).toBeGreaterThan(0);
    for (const example of schema.examples as unknown[]) expect(errorsOf(schema, example)).toBe('');
  });

  it('plan.limit_reached data takes the register and the gateway variants, nothing else', () => {
    const schema = EVENT_DATA_SCHEMAS['plan.limit_reached'];
    const workspace = { id: 'wsp_1' };
    expect(errorsOf(schema, { workspace, plan: 'pro', limit: 'seats', value: 3 })).toBe('');
    expect(
      errorsOf(schema, {
        workspace: { ...workspace, name: 'Acme' },
        plan: 'pro',
        limit: 'monthly_quota',
        value: 2,
        key: { id: 'key_1', prefix: 'cus_12345678' },
      }),
    ).toBe('');
    expect(errorsOf(schema, { workspace, plan: 'pro', limit: 'monthly_quota', value: 2 })).not.toBe(
      '',
    );
    expect(errorsOf(schema, { workspace, plan: 'pro', limit: 'assets', value: null })).not.toBe('');
  });
});

describe('eventEnvelopeSchema', () => {
  it.each(envelopes)('%s envelope compiles and its example validates', (key, schema) => {
    expect(() => compile(schema)).not.toThrow();
    expect(schema.properties.event.const).toBe(key);
    for (const example of schema.examples as unknown[]) expect(errorsOf(schema, example)).toBe('');
  });

  it('fixes the envelope: evt_ id, the key as event, created_at, data; nothing more', () => {
    const schema = eventEnvelopeSchema('asset.created');
    const [example] = schema.examples as [Record<string, unknown>];
    expect(errorsOf(schema, example)).toBe('');
    expect(errorsOf(schema, { ...example, event: 'asset.updated' })).not.toBe('');
    expect(errorsOf(schema, { ...example, id: 'dlv_1' })).not.toBe('');
    expect(errorsOf(schema, { ...example, workspace_id: 'wsp_1' })).not.toBe('');
    expect(errorsOf(schema, { ...example, data: { id: 'ast_1' } })).not.toBe('');
  });
});
