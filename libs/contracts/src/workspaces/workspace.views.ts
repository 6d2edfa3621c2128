import {
  ArrayContains,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
} from 'class-validator';
import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, Field, IdField, NestedField, TextField } from '../fields/field.decorators';
import { KEY_SCOPES, type KeyScope } from './key.constants';
import { PLAN_NAMES, type PlanName } from './plan.constants';
import type { EffectiveLimits } from './plan.views';
import { KEY_SCOPE, PLAN, WORKSPACE_ID } from './workspace.docs';

export interface WorkspaceView {
  id: string;
  name: string;
  plan: PlanName;
  api_access: boolean;
  limits: EffectiveLimits;
  overrides: Partial<EffectiveLimits>;
  created_at: string;
  updated_at: string;
}

@ContractSchema({ name: 'PingWorkspace' })
export class PingWorkspace {
  @IdField('wsp', WORKSPACE_ID) id!: string;
  @TextField({ description: 'Name of the workspace.' }) name!: string;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
}

@ContractSchema({ name: 'PingKey' })
export class PingKey {
  @IdField('key', 'Id of the key.') id!: string;

  @TextField({
    pattern: '^cus_[0-9A-Za-z]{8}$',
    description: 'The first 12 characters of the key, to tell keys apart.',
  })
  prefix!: string;

  @EnumField(KEY_SCOPES, KEY_SCOPE) scope!: KeyScope;
}

/** `["read"]` or `["read", "write"]`. */
const Scopes = () =>
  Field(
    {
      type: 'array',
      items: { type: 'string', enum: [...KEY_SCOPES], ...KEY_SCOPE },
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      contains: { type: 'string', const: 'read' },
    },
    [
      IsArray(),
      IsIn(KEY_SCOPES, { each: true, message: `scopes must be among ${KEY_SCOPES.join(', ')}` }),
      ArrayMinSize(1),
      ArrayMaxSize(2),
      ArrayUnique(),
      ArrayContains(['read'], { message: 'scopes must contain read' }),
    ],
    { description: 'What the key may do: `["read"]` or `["read", "write"]`.' },
  );

@ContractSchema({
  name: 'Ping',
  description: 'The body of `GET /ping`: the workspace the key belongs to and what the key may do.',
  examples: [
    {
      workspace: { id: 'wsp_01jd8w0a9b8c7d6e5f4g3h2j1k', name: 'Acme', plan: 'pro' },
      key: { id: 'key_01jd8w1b2c3d4e5f6g7h8j9k0m', prefix: 'cus_7Hq2Lx9P', scope: 'write' },
      scopes: ['read', 'write'],
    },
  ],
})
export class Ping {
  @NestedField(PingWorkspace, { description: 'The workspace the key belongs to.' })
  workspace!: PingWorkspace;

  @NestedField(PingKey, { description: 'The key the request was made with.' })
  key!: PingKey;

  @Scopes() scopes!: KeyScope[];
}

/** The body of GET /ping. */
export type PingView = Ping;
