/**
 * An endpoint the webhook worker disabled for its failures (`disabled_reason: auto`), as the
 * worker states it: written to its outbox in the statement that disables the endpoint, and
 * published on an internal routing key (never a webhook event: the endpoint that would receive
 * it is the one that is down). The register reads it from a queue of its own and e-mails the
 * workspace's owners and admins once per message.
 */
export interface EndpointDisabledNotice {
  workspace_id: string;
  endpoint_id: string;
  url: string;
  /** Always `auto` today: only the worker's own disabling is announced. */
  reason: 'auto';
  /** Deliveries that failed in a row when it was disabled. */
  consecutive_failures: number;
  /** When the run of failures began (ISO 8601), or null if unknown. */
  failing_since: string | null;
  /** When it was disabled (ISO 8601). */
  disabled_at: string;
}

/** The routing key of EndpointDisabledNotice on the events exchange (`internal.`: no event). */
export const ENDPOINT_DISABLED_ROUTING_KEY = 'internal.endpoint.disabled';

/**
 * The key under which the console's event catalog lists the notice: console-only, so no
 * endpoint can subscribe to it (creating one with it stays a 400) and it is not one of the 41.
 */
export const ENDPOINT_DISABLED_NOTICE_KEY = 'endpoint.disabled';

/**
 * The register's queue of these notices, named after the events exchange (a test's stack gets
 * its own). The worker's relay declares it too, so that notices published before the register
 * first started wait for it.
 */
export function endpointDisabledQueueOf(exchange: string): string {
  return `${exchange}.endpoint-disabled.register`;
}

/** A notice checked field by field (a message off the broker), or what is wrong. */
export function parseEndpointDisabledNotice(value: unknown): EndpointDisabledNotice | string {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const notice = value as Record<string, unknown>;
  for (const field of ['workspace_id', 'endpoint_id', 'url'] as const) {
    if (typeof notice[field] !== 'string' || notice[field] === '') {
      return `${field} must be a non-empty string`;
    }
  }
  if (notice.reason !== 'auto') return 'reason must be auto';
  const failures = notice.consecutive_failures;
  if (!Number.isInteger(failures) || (failures as number) < 0) {
    return 'consecutive_failures must be a non-negative integer';
  }
  const since = notice.failing_since;
  if (since !== null && (typeof since !== 'string' || Number.isNaN(Date.parse(since)))) {
    return 'failing_since must be an ISO 8601 timestamp or null';
  }
  if (typeof notice.disabled_at !== 'string' || Number.isNaN(Date.parse(notice.disabled_at))) {
    return 'disabled_at must be an ISO 8601 timestamp';
  }
  return notice as unknown as EndpointDisabledNotice;
}

/** The catalog's console-only notices, listed apart from the 41 (never delivered to endpoints). */
export const CONSOLE_ONLY_NOTICES = [
  {
    key: ENDPOINT_DISABLED_NOTICE_KEY,
    description:
      'Console-only notice, not a webhook: an endpoint was disabled after a run of failed ' +
      "deliveries. The workspace's owners and admins get an e-mail and the console shows a " +
      'banner until the endpoint is enabled again (a delivered Test ping enables it too).',
    example: {
      workspace_id: 'wsp_01JD0000000000000000000000',
      endpoint_id: 'whe_01JD0000000000000000000000',
      url: 'https://hooks.example.com/custodian',
      reason: 'auto',
      consecutive_failures: 50,
      failing_since: '2026-01-14T08:00:00.000Z',
      disabled_at: '2026-01-15T09:30:00.000Z',
    } satisfies EndpointDisabledNotice,
  },
] as const;
