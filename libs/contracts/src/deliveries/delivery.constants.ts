/** Where a delivery stands: attempts to come, delivered, or failed for good. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Error kinds of an attempt that got no HTTP status. `forbidden_address`: the target resolved
 * to an address production webhooks may not reach (private, loopback, ...); final, not retried.
 * `secret_unreadable`: the endpoint's stored signing secret did not decrypt with the worker's
 * keys (WEBHOOK_SECRET_KEYS), so nothing was sent; retried.
 */
export const DELIVERY_ERROR_KINDS = [
  'timeout',
  'connection_refused',
  'dns',
  'network',
  'forbidden_address',
  'secret_unreadable',
] as const;
export type DeliveryErrorKind = (typeof DELIVERY_ERROR_KINDS)[number];

/** The most deliveries one bulk resend makes pending again. */
export const BULK_RESEND_MAX = 1000;
export const DELIVERY_SEARCH_LIMIT_DEFAULT = 50;
