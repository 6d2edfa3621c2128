import { API_MODELS } from './api-models';
import { ASSET_EXAMPLE } from './assets';
import {
  DELIVERABLE_EVENTS,
  EMITTED_EVENTS,
  EVENT_CATALOG,
  EVENT_KEYS,
  EventEnvelope,
  PublishedEvent,
  eventDataExamples,
  eventDataModels,
  eventEnvelopeExample,
  type DeliverableEvent,
} from './events';
import { contractErrors, examplesOf, oneOfErrors, type ContractClass } from './fields';
import { Health } from './health';
import { Invitation, RenewedInvitation } from './members';
import { errorBody, errorBodyForCode, type DomainErrorCode } from './shared';
import { Ping } from './workspaces';

/** Response classes that are not components of the document (health, the CLI's invitations). */
const OTHER_MODELS: Record<string, ContractClass> = { Health, Invitation, RenewedInvitation };
const MODELS = Object.entries({ ...API_MODELS, ...OTHER_MODELS }) as Array<[string, ContractClass]>;

const [PING_EXAMPLE] = examplesOf(Ping) as [Record<string, unknown>];

describe('API_MODELS and the other response classes', () => {
  it('names the components of every JSON body of the /api/v1 routes', () => {
    expect(Object.keys(API_MODELS).sort()).toEqual(
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

  it.each(MODELS)('%s has examples, and each is a valid instance', (_name, model) => {
    const examples = examplesOf(model);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(contractErrors(model, example)).toEqual([]);
  });

  it('closes the objects we control: an undocumented field fails, custom_fields stay open', () => {
    expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, secret: 1 })).toEqual([
      '/secret property secret should not exist',
    ]);
    expect(
      contractErrors(API_MODELS.Asset, {
        ...ASSET_EXAMPLE,
        custom_fields: { anything: { nested: [1, 'two'] } },
      }),
    ).toEqual([]);
    expect(
      contractErrors(API_MODELS.Asset, {
        ...ASSET_EXAMPLE,
        category: { ...ASSET_EXAMPLE.category, extra: true },
      }),
    ).toEqual(['/category/extra property extra should not exist']);
  });

  it('requires every field of a response, null where it is nullable', () => {
    const withoutSku: Record<string, unknown> = { ...ASSET_EXAMPLE };
    delete withoutSku.sku;
    expect(contractErrors(API_MODELS.Asset, withoutSku)).toEqual(['/sku sku must be a string']);
    expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, sku: null })).toEqual([]);
    expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, name: null })).not.toEqual([]);
    expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, category: [] })).not.toEqual([]);
    expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, category: 'x' })).not.toEqual([]);
  });

  it('refuses timestamps that are not UTC with milliseconds and Z', () => {
    for (const updated_at of [
      '2026-11-22T10:15:00Z',
      '2026-11-22T10:15:00.000+01:00',
      '2026-13-22T10:15:00.000Z',
      'soon',
    ]) {
      expect(contractErrors(API_MODELS.Asset, { ...ASSET_EXAMPLE, updated_at })).not.toEqual([]);
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
      'overloaded',
      'timeout',
      'internal',
    ];
    for (const code of codes) {
      expect(contractErrors(API_MODELS.Error, errorBodyForCode(code, 'x'))).toEqual([]);
    }
    for (const status of [400, 404, 405, 406, 413, 418, 500, 502, 599]) {
      expect(contractErrors(API_MODELS.Error, errorBody(status, 'x'))).toEqual([]);
    }
    expect(contractErrors(API_MODELS.Error, { ...errorBody(400, 'x'), detail: 'x' })).not.toEqual(
      [],
    );
    expect(
      contractErrors(API_MODELS.Error, { ...errorBody(400, 'x'), statusCode: 200 }),
    ).not.toEqual([]);
  });

  it('ping scopes are ["read"] or ["read", "write"]', () => {
    expect(contractErrors(Ping, { ...PING_EXAMPLE, scopes: ['read'] })).toEqual([]);
    for (const scopes of [[], ['write'], ['read', 'read'], ['read', 'write', 'admin'], 'read']) {
      expect(contractErrors(Ping, { ...PING_EXAMPLE, scopes })).not.toEqual([]);
    }
  });
});

describe('EVENT_CATALOG', () => {
  it('has exactly the 41 catalog keys and ping', () => {
    expect(EVENT_KEYS).toHaveLength(41);
    expect(Object.keys(EVENT_CATALOG).sort()).toEqual([...DELIVERABLE_EVENTS].sort());
  });

  it.each(DELIVERABLE_EVENTS)('%s is documented, and its data examples are valid', (key) => {
    const emitted = (EMITTED_EVENTS as readonly string[]).includes(key);
    const { description } = EVENT_CATALOG[key];
    expect(description.includes('not emitted yet')).toBe(!emitted);
    const examples = eventDataExamples(key);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(oneOfErrors(eventDataModels(key), example)).toEqual([]);
    }
  });

  it('plan.limit_reached data takes the register and the gateway variants, nothing else', () => {
    const models = eventDataModels('plan.limit_reached');
    const workspace = { id: 'wsp_1' };
    expect(oneOfErrors(models, { workspace, plan: 'pro', limit: 'seats', value: 3 })).toEqual([]);
    expect(
      oneOfErrors(models, {
        workspace: { ...workspace, name: 'Acme' },
        plan: 'pro',
        limit: 'monthly_quota',
        value: 2,
        key: { id: 'key_1', prefix: 'cus_12345678' },
      }),
    ).toEqual([]);
    expect(
      oneOfErrors(models, { workspace, plan: 'pro', limit: 'monthly_quota', value: 2 }),
    ).not.toEqual([]);
    expect(
      oneOfErrors(models, { workspace, plan: 'pro', limit: 'assets', value: null }),
    ).not.toEqual([]);
  });
});

describe('EventEnvelope', () => {
  const envelopeErrors = (key: DeliverableEvent, envelope: Record<string, unknown>) => [
    ...contractErrors(EventEnvelope, envelope),
    ...oneOfErrors(eventDataModels(key), envelope.data, '/data'),
  ];

  it.each(DELIVERABLE_EVENTS)('%s: the envelope example is valid', (key) => {
    const example = eventEnvelopeExample(key) as Record<string, unknown>;
    expect(example.event).toBe(key);
    expect(envelopeErrors(key, example)).toEqual([]);
  });

  it('fixes the envelope: evt_ id, a catalog key, created_at, an object as data; nothing more', () => {
    const example = eventEnvelopeExample('asset.created') as Record<string, unknown>;
    expect(contractErrors(EventEnvelope, { ...example, event: 'asset.exploded' })).not.toEqual([]);
    expect(contractErrors(EventEnvelope, { ...example, id: 'dlv_1' })).not.toEqual([]);
    expect(contractErrors(EventEnvelope, { ...example, created_at: 'now' })).not.toEqual([]);
    expect(contractErrors(EventEnvelope, { ...example, data: 'x' })).not.toEqual([]);
    expect(contractErrors(EventEnvelope, { ...example, workspace_id: 'wsp_1' })).not.toEqual([]);
    expect(envelopeErrors('asset.created', { ...example, data: { id: 'ast_1' } })).not.toEqual([]);
  });

  it('the published message is the envelope with the workspace it belongs to', () => {
    const example = eventEnvelopeExample('ping') as Record<string, unknown>;
    expect(contractErrors(PublishedEvent, { ...example, workspace_id: 'wsp_1' })).toEqual([]);
    expect(contractErrors(PublishedEvent, example)).toEqual([
      '/workspace_id workspace_id must be a string',
    ]);
  });
});
