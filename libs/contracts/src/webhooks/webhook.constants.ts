/** The most overlap a rotation may give the previous secret: a week. */
export const MAX_SECRET_OVERLAP_HOURS = 168;
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;

/** `manual`: a person disabled the endpoint; `auto`: a long run of failed deliveries did. */
export const DISABLED_REASONS = ['manual', 'auto'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];
