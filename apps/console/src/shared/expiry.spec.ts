import { endsAt, expiryBadge } from './expiry';

describe('expiry dates', () => {
  const now = new Date('2026-11-28T10:00:00.000Z');

  it('ends at the end (UTC) of its last valid day', () => {
    expect(endsAt('2026-12-31').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('badges the expiry: none, ok, soon within 30 days, expired', () => {
    expect(expiryBadge(null, now)).toEqual({ tone: 'none', text: 'No end date' });
    expect(expiryBadge('2027-06-30', now)).toEqual({
      tone: 'ok',
      text: 'Until 2027-06-30',
    });
    expect(expiryBadge('2026-12-04', now)).toEqual({
      tone: 'soon',
      text: 'Ends in 7 days',
    });
    expect(expiryBadge('2026-11-28', now).text).toBe('Ends in 1 day');
    expect(expiryBadge('2026-11-27', now)).toEqual({
      tone: 'expired',
      text: 'Expired',
    });
  });

  it('names a missing date as asked', () => {
    expect(expiryBadge(null, now, { none: 'No warranty' })).toEqual({
      tone: 'none',
      text: 'No warranty',
    });
  });
});
