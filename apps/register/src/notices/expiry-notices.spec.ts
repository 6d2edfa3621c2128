import { dayEndsAt, daysLeft, nextExpiring } from './expiry-notices';

const DAY = 86_400_000;

describe('expiry dates', () => {
  const ends = dayEndsAt('2027-03-31');

  it('ends at the end (UTC) of the last valid day', () => {
    expect(ends.toISOString()).toBe('2027-04-01T00:00:00.000Z');
    expect(dayEndsAt('2026-12-31').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('arms the largest threshold still ahead, at its day', () => {
    const at = new Date(ends.getTime() - 40 * DAY);
    expect(nextExpiring(ends, at, [30, 7])?.toISOString()).toBe('2027-03-02T00:00:00.000Z');
    expect(nextExpiring(ends, at, [7, 30])?.getTime()).toBe(ends.getTime() - 30 * DAY);
  });

  it('fires the nearest threshold already reached at once, and none larger', () => {
    const at = new Date(ends.getTime() - 5.5 * DAY);
    expect(nextExpiring(ends, at, [30, 7])).toEqual(at);
    expect(daysLeft(ends, at)).toBe(6);
    // A restore: what was reached is not told again; nothing is left ahead here.
    expect(nextExpiring(ends, at, [30, 7], false)).toBeNull();
    expect(nextExpiring(ends, new Date(ends.getTime() - 20 * DAY), [30, 7], false)).toEqual(
      new Date(ends.getTime() - 7 * DAY),
    );
  });

  it('arms nothing once it has ended, or with no thresholds', () => {
    expect(nextExpiring(ends, ends, [30, 7])).toBeNull();
    expect(nextExpiring(ends, new Date(ends.getTime() - 40 * DAY), [])).toBeNull();
    expect(daysLeft(ends, new Date(ends.getTime() + DAY))).toBe(0);
  });
});
