import { ContractSchema } from '../fields/contract-schema.decorator';
import {
  ConstField,
  EnumField,
  IdField,
  IntField,
  NestedField,
  TextField,
} from '../fields/field.decorators';
import { PLAN_NAMES, type PlanName } from './plan.constants';
import { EffectiveLimits } from './plan.views';
import { PLAN, WORKSPACE_ID } from './workspace.docs';

/** The `data` of the plan.* events (written by the gateway and the register). */

@ContractSchema({ name: 'WorkspaceRef' })
export class WorkspaceRef {
  @IdField('wsp', WORKSPACE_ID) id!: string;
  @TextField() name!: string;
}

@ContractSchema({ name: 'WorkspaceId' })
export class WorkspaceId {
  @IdField('wsp', WORKSPACE_ID) id!: string;
}

@ContractSchema({ name: 'PlanState' })
export class PlanState {
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @NestedField(EffectiveLimits) limits!: EffectiveLimits;
}

@ContractSchema({ name: 'PlanChanged' })
export class PlanChanged {
  @NestedField(WorkspaceRef) workspace!: WorkspaceRef;

  @NestedField(PlanState, { description: 'The plan and effective limits before the change.' })
  previous!: PlanState;

  @NestedField(PlanState, { description: 'The plan and effective limits after the change.' })
  current!: PlanState;
}

/** Written by the register: the create (or acceptance) that used the last unit of a limit. */
@ContractSchema({
  name: 'RecordLimitReached',
  description:
    'Asset, people or seat limit: written by the create or invitation acceptance that ' +
    'used the last unit (the next one is refused with 403).',
})
export class RecordLimitReached {
  @NestedField(WorkspaceId) workspace!: WorkspaceId;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;

  @EnumField(['assets', 'people', 'seats'], {
    description: 'Which limit: assets and people by a create, seats by an accepted invitation.',
  })
  limit!: 'assets' | 'people' | 'seats';

  @IntField({ min: 0, description: 'The limit now reached.' }) value!: number;
}

@ContractSchema({ name: 'KeyRef' })
export class KeyRef {
  @IdField('key', 'Id of the key.') id!: string;
  @TextField({ description: 'Display prefix of the key.' }) prefix!: string;
}

/** Written by the gateway: the request that used the last unit of a key's monthly quota. */
@ContractSchema({
  name: 'QuotaLimitReached',
  description:
    "Monthly quota: written for the request that used the last unit of a key's quota " +
    '(the next one is refused with 429).',
})
export class QuotaLimitReached {
  @NestedField(WorkspaceRef) workspace!: WorkspaceRef;
  @EnumField(PLAN_NAMES, PLAN) plan!: PlanName;
  @ConstField('monthly_quota') limit!: 'monthly_quota';
  @IntField({ min: 0, description: 'The monthly quota per key now used up.' }) value!: number;
  @NestedField(KeyRef, { description: 'The key whose quota is used up.' }) key!: KeyRef;
}
