import type { Endpoint } from '@custodian/console-client';
import { autoDisabledEndpoints, endpointState } from './endpoint-state';

function endpoint(id: string, changes: Partial<Endpoint>): Endpoint {
  return {
    id,
    url: `https://hooks.example.com/${id}`,
    enabled: true,
    disabled_reason: null,
    disabled_at: null,
    consecutive_failures: 0,
    ...changes,
  } as Endpoint;
}

describe('endpoint state', () => {
  it('names the endpoints the worker disabled, oldest first, never those a person did', () => {
    const late = endpoint('late', {
      enabled: false,
      disabled_reason: 'auto',
      disabled_at: '2026-01-15T10:00:00.000Z',
    });
    const early = endpoint('early', {
      enabled: false,
      disabled_reason: 'auto',
      disabled_at: '2026-01-15T09:00:00.000Z',
    });
    const byHand = endpoint('by-hand', {
      enabled: false,
      disabled_reason: 'manual',
      disabled_at: '2026-01-15T08:00:00.000Z',
    });
    const fine = endpoint('fine', {});
    expect(autoDisabledEndpoints([late, fine, byHand, early]).map((each) => each.id)).toEqual([
      'early',
      'late',
    ]);
    expect([late, byHand, fine].map(endpointState)).toEqual([
      'auto-disabled',
      'disabled',
      'enabled',
    ]);
  });
});
