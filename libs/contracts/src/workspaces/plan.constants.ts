export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** The limits of a plan, by their names in EffectiveLimits (`null` there is unlimited). */
export const LIMIT_NAMES = ['ratePerMinute', 'monthlyQuota', 'assets', 'people', 'seats'] as const;
