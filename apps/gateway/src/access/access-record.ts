import type { EffectiveLimits, KeyScope, PlanName } from '@custodian/contracts';

/** Everything a request needs to know about its key, resolved from one cache entry. */
export interface AccessRecord {
  keyId: string;
  /** Absent from entries cached by the version before, which did not keep it. */
  keyName?: string | null;
  prefix: string;
  scope: KeyScope;
  revoked: boolean;
  workspaceId: string;
  workspaceName: string;
  plan: PlanName;
  apiAccess: boolean;
  limits: EffectiveLimits;
}
