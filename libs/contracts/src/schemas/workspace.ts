import { Type } from '@sinclair/typebox';
import { PLAN_NAMES } from '../plans';
import { Nullable, PrefixedId, StringEnum } from './common';

export const PlanNameSchema = StringEnum(PLAN_NAMES, {
  description: 'The plan of the workspace: ' + PLAN_NAMES.join(', ') + '.',
});

export const KeyScopeSchema = StringEnum(['read', 'write'] as const, {
  description: 'Scope of an API key: `read`, or `write` (which includes read).',
});

const limit = (description: string) =>
  Nullable(Type.Integer({ minimum: 0 }), { description: `${description}; null means unlimited.` });

/** A workspace's limits after its overrides are applied to its plan. */
export const EffectiveLimitsSchema = Type.Object(
  {
    ratePerMinute: limit('Requests per minute per key'),
    monthlyQuota: limit('Requests per calendar month (UTC) per key'),
    assets: limit('Assets'),
    people: limit('People'),
    seats: limit('Member seats (active members)'),
  },
  {
    additionalProperties: false,
    description: "The workspace's effective limits: its plan's, with its overrides applied.",
  },
);

export const WorkspaceIdSchema = PrefixedId('wsp', 'Id of the workspace: `wsp_` + a ULID.');

export const PingSchema = Type.Object(
  {
    workspace: Type.Object(
      {
        id: WorkspaceIdSchema,
        name: Type.String({ description: 'Name of the workspace.' }),
        plan: PlanNameSchema,
      },
      { additionalProperties: false, description: 'The workspace the key belongs to.' },
    ),
    key: Type.Object(
      {
        id: PrefixedId('key', 'Id of the key.'),
        prefix: Type.String({
          pattern: '^cus_[0-9A-Za-z]{8}$',
          description: 'The first 12 characters of the key, to tell keys apart.',
        }),
        scope: KeyScopeSchema,
      },
      { additionalProperties: false, description: 'The key the request was made with.' },
    ),
    scopes: Type.Array(KeyScopeSchema, {
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      contains: Type.Literal('read'),
      description: 'What the key may do: `["read"]` or `["read", "write"]`.',
    }),
  },
  {
    additionalProperties: false,
    title: 'Ping',
    description:
      'The body of `GET /ping`: the workspace the key belongs to and what the key may do.',
    examples: [
      {
        workspace: { id: 'wsp_01jd8w0a9b8c7d6e5f4g3h2j1k', name: 'Acme', plan: 'pro' },
        key: { id: 'key_01jd8w1b2c3d4e5f6g7h8j9k0m', prefix: 'cus_7Hq2Lx9P', scope: 'write' },
        scopes: ['read', 'write'],
      },
    ],
  },
);
