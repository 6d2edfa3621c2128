import {
  defaultFulfilment,
  instantOf,
  isRequestStatus,
  localInput,
  requestRange,
  requestSubject,
} from './request-values';

describe('request values', () => {
  it('names what was asked for: the asset with its tag, or any of a category', () => {
    expect(
      requestSubject({
        asset: { id: 'ast_1', name: 'Sony A7 IV', asset_tag: 'CAM-0042' },
        category: null,
      }),
    ).toBe('Sony A7 IV (CAM-0042)');
    expect(requestSubject({ asset: null, category: { id: 'cat_1', name: 'Cameras' } })).toBe(
      'Any Cameras',
    );
  });

  it('approves a request with a range as a booking, one for now as a check-out', () => {
    expect(defaultFulfilment({ starts_at: '2026-12-04T09:00:00.000Z' })).toBe('booking');
    expect(defaultFulfilment({ starts_at: null })).toBe('check_out');
  });

  it('knows the statuses, and nothing else', () => {
    expect(isRequestStatus('pending')).toBe(true);
    expect(isRequestStatus('cancelled')).toBe(false);
    expect(isRequestStatus(null)).toBe(false);
  });

  it('round-trips a datetime-local value through the instant it means', () => {
    const iso = instantOf('2026-12-04T09:30');
    expect(iso).not.toBeNull();
    expect(localInput(iso)).toBe('2026-12-04T09:30');
    expect(instantOf('')).toBeNull();
    expect(instantOf('Friday')).toBeNull();
    expect(localInput(null)).toBe('');
  });

  it('checks the range before asking: both ends, the end after the start', () => {
    expect(requestRange('now', '', '')).toBeNull();
    expect(requestRange('range', '2026-12-04T09:00', '')).toMatch(/first and the last/);
    expect(requestRange('range', '2026-12-04T09:00', '2026-12-04T08:00')).toMatch(/after/);
    expect(requestRange('range', '2026-12-04T09:00', '2026-12-04T18:00')).toEqual({
      starts_at: instantOf('2026-12-04T09:00'),
      ends_at: instantOf('2026-12-04T18:00'),
    });
  });
});
