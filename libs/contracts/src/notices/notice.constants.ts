/**
 * Days before an expiry date (a licence's `expires_on`, later a warranty's) that an
 * `*.expiring` event fires, one per threshold: the workspace's default.
 */
export const EXPIRY_NOTICE_DAYS_DEFAULT = [30, 7] as const;
/** Thresholds a workspace may set, and how far ahead each may be. */
export const EXPIRY_NOTICE_THRESHOLDS_MAX = 5;
export const EXPIRY_NOTICE_DAYS_MAX = 365;
