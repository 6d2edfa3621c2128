/**
 * An audit (stock-take) is `starting` while its expected set is being fixed, `open` while it
 * takes scans, `completing` while the completion job settles its items, then `completed`; or
 * `cancelled` (from starting or open).
 */
export const AUDIT_STATUSES = ['starting', 'open', 'completing', 'completed', 'cancelled'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** What a scan in an audit was: an expected asset, one seen elsewhere, or one not expected. */
export const AUDIT_SCAN_OUTCOMES = ['found', 'unexpected', 'misplaced'] as const;
export type AuditScanOutcome = (typeof AUDIT_SCAN_OUTCOMES)[number];

/** The lists of an audit's items (GET /audits/{id}/items?state=). */
export const AUDIT_ITEM_STATES = [
  'expected',
  'found',
  'missing',
  'unexpected',
  'misplaced',
] as const;
export type AuditItemState = (typeof AUDIT_ITEM_STATES)[number];

/** An audit of listed assets names 1 to this many. */
export const AUDIT_ASSET_IDS_MAX = 1_000;

export const AUDIT_PAGE_SIZE_DEFAULT = 50;
export const AUDIT_PAGE_SIZE_MAX = 200;
