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
