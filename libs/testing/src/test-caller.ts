import type { CallerContext, EffectiveLimits, PlanName } from '@custodian/contracts';
import { PLAN_CATALOG } from '@custodian/plans';
import { newId } from '@custodian/persistence';

export interface TestCallerOptions {
  workspaceId?: string;
  plan?: PlanName;
  /** Overrides of the plan's limits, as a workspace's overrides would give them. */
  limits?: Partial<EffectiveLimits>;
}

/**
 * The caller context the gateway would resolve for a write key of a new workspace (pro plan
 * by default, with its catalog limits): what the register's services take with every request.
 */
export function testCaller(options: TestCallerOptions = {}): CallerContext {
  const plan = options.plan ?? 'pro';
  return {
    workspaceId: options.workspaceId ?? newId('wsp'),
    keyId: newId('key'),
    scope: 'write',
    plan,
    limits: { ...PLAN_CATALOG[plan].limits, ...options.limits },
  };
}
