import type { EffectiveLimits, PlanName } from './plans';

export type KeyScope = 'read' | 'write';

/**
 * Who is calling, resolved by the gateway and carried with every request to the register.
 * The register trusts it: only the gateway can publish on the request queue.
 */
export interface CallerContext {
  workspaceId: string;
  keyId: string;
  scope: KeyScope;
  plan: PlanName;
  limits: EffectiveLimits;
}

export interface RegisterRequest<T> {
  caller: CallerContext;
  payload: T;
}
