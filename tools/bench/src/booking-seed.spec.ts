import { BUSY_ASSET_BOOKINGS, bookingSpread, weekAnchor, weeks } from './booking-seed';

describe('weekAnchor', () => {
  it('is Monday 00:00 UTC of the week, Sunday included', () => {
    expect(weekAnchor(new Date('2026-11-28T10:21:00Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    expect(weekAnchor(new Date('2026-11-29T23:59:59Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
    expect(weekAnchor(new Date('2026-11-23T00:00:00Z')).toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });
});

describe('weeks', () => {
  it('gives consecutive weeks from an offset', () => {
    const anchor = new Date('2026-11-23T00:00:00Z');
    const [first, second] = weeks(anchor, -1, 2);
    expect(first?.from.toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(first?.to.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(second?.to.toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });
});

describe('bookingSpread', () => {
  it('gives the busy asset a booking a day and the others one each at a million', () => {
    const spread = bookingSpread(1_000_000, 1_000_000);
    expect(spread.busy).toBe(BUSY_ASSET_BOOKINGS);
    expect(spread.rest).toBe(1_000_000 - BUSY_ASSET_BOOKINGS);
    expect(spread.rounds).toBe(1);
  });

  it('gives the busy asset at most a tenth, and the others several rounds when fewer', () => {
    expect(bookingSpread(1000, 500).busy).toBe(50);
    const spread = bookingSpread(1001, 10_000);
    expect(spread.rounds).toBe(10);
    expect(spread.roundMinutes).toBe(Math.floor((104 * 7 * 24 * 60) / 10));
  });

  it('refuses more bookings an asset than the span holds without overlap', () => {
    expect(() => bookingSpread(11, 100_000)).toThrow(/BENCH_BOOKINGS/);
    expect(() => bookingSpread(1, 10)).toThrow(/BENCH_ASSETS/);
  });
});
