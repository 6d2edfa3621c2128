import { ContractSchema } from './fields/contract-schema.decorator';
import { IntField } from './fields/field.decorators';

export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

const limit = (description: string) =>
  IntField({ min: 0, nullable: true, description: `${description}; null means unlimited.` });

/** Limits after applying a workspace's overrides to its plan; `null` means unlimited. */
@ContractSchema({
  name: 'EffectiveLimits',
  description: "The workspace's effective limits: its plan's, with its overrides applied.",
})
export class EffectiveLimits {
  @limit('Requests per minute per key') ratePerMinute!: number | null;
  @limit('Requests per calendar month (UTC) per key') monthlyQuota!: number | null;
  @limit('Assets') assets!: number | null;
  @limit('People') people!: number | null;
  @limit('Member seats (active members)') seats!: number | null;
}

export type LimitName = keyof EffectiveLimits;

/**
 * What a workspace uses of its register limits, as the register counts them (its
 * workspace_counters row): assets not deleted, people, and seats (active members).
 */
export interface WorkspaceUsageCounts {
  assets: number;
  people: number;
  seats: number;
}
