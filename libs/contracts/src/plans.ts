import type { Static } from '@sinclair/typebox';
import type { EffectiveLimitsSchema } from './schemas/workspace';

export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Limits after applying a workspace's overrides to its plan; `null` means unlimited. */
export type EffectiveLimits = Static<typeof EffectiveLimitsSchema>;

export type LimitName = keyof EffectiveLimits;
