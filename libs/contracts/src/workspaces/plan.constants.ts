export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** The limits of a plan, by their names in EffectiveLimits (`null` there is unlimited). */
export const LIMIT_NAMES = ['ratePerMinute', 'monthlyQuota', 'assets', 'people', 'seats'] as const;

/**
 * Webhook endpoints a workspace may have, by plan: what bounds the deliveries one event makes
 * (issue 31). Free has no webhooks at all.
 */
export const WEBHOOK_ENDPOINT_LIMITS: Readonly<Record<PlanName, number>> = {
  free: 0,
  pro: 10,
  business: 25,
  enterprise: 100,
};
