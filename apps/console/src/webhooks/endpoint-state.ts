import type { Endpoint } from '@custodian/console-client';

export type EndpointState = 'enabled' | 'disabled' | 'auto-disabled';

export function endpointState(endpoint: Endpoint): EndpointState {
  if (endpoint.enabled) return 'enabled';
  return endpoint.disabled_reason === 'auto' ? 'auto-disabled' : 'disabled';
}

export const STATE_LABEL: Record<EndpointState, string> = {
  enabled: 'Enabled',
  disabled: 'Disabled',
  'auto-disabled': 'Auto-disabled',
};

/** Whether the endpoint receives every event ('*' alone). */
export function receivesAll(events: readonly string[]): boolean {
  return events.length === 1 && events[0] === '*';
}

/**
 * The endpoints the worker disabled for their failures, oldest disable first: what the
 * workspace banner names (endpoints disabled by a person are their choice, not news).
 */
export function autoDisabledEndpoints(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints
    .filter((endpoint) => endpointState(endpoint) === 'auto-disabled')
    .sort((a, b) => (a.disabled_at ?? '').localeCompare(b.disabled_at ?? ''));
}
