import { endsAt, expiryBadge, seatShare, seatsText } from './license-values';

describe('licence values', () => {
  const now = new Date('2026-11-28T10:00:00.000Z');

  it('ends at the end (UTC) of its last valid day', () => {
    expect(endsAt('2026-12-31').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('badges the expiry: none, ok, soon within 30 days, expired', () => {
    expect(expiryBadge({ expires_on: null }, now)).toEqual({ tone: 'none', text: 'No end date' });
    expect(expiryBadge({ expires_on: '2027-06-30' }, now)).toEqual({
      tone: 'ok',
      text: 'Until 2027-06-30',
    });
    expect(expiryBadge({ expires_on: '2026-12-04' }, now)).toEqual({
      tone: 'soon',
      text: 'Ends in 7 days',
    });
    expect(expiryBadge({ expires_on: '2026-11-28' }, now).text).toBe('Ends in 1 day');
    expect(expiryBadge({ expires_on: '2026-11-27' }, now)).toEqual({
      tone: 'expired',
      text: 'Expired',
    });
  });

  it('says the seats used, and their share of those bought', () => {
    expect(seatShare({ seats: 4, seats_used: 3 })).toBe(0.75);
    expect(seatShare({ seats: null, seats_used: 3 })).toBeNull();
    expect(seatsText({ seats: 25, seats_used: 12 })).toBe('12 of 25 seats');
    expect(seatsText({ seats: null, seats_used: 1 })).toBe('1 seat (unlimited)');
  });
});
