import { seatShare, seatsText } from './license-values';

describe('licence values', () => {
  it('says the seats used, and their share of those bought', () => {
    expect(seatShare({ seats: 4, seats_used: 3 })).toBe(0.75);
    expect(seatShare({ seats: null, seats_used: 3 })).toBeNull();
    expect(seatsText({ seats: 25, seats_used: 12 })).toBe('12 of 25 seats');
    expect(seatsText({ seats: null, seats_used: 1 })).toBe('1 seat (unlimited)');
  });
});
