/**
 * The limits a workspace's usage is measured against, named as `plan.limit_reached` and the
 * admin CLI name them. The last two apply to each key on its own.
 */
export const USAGE_LIMITS = [
  'assets',
  'people',
  'seats',
  'monthly_quota',
  'rate_per_minute',
] as const;
export type UsageLimitName = (typeof USAGE_LIMITS)[number];

export const USAGE_STATES = ['ok', 'near', 'reached'] as const;
export type UsageState = (typeof USAGE_STATES)[number];

/** From this share of a limit on, usage is `near` it: early enough to upgrade or clean up. */
export const NEAR_LIMIT_SHARE = 0.8;
