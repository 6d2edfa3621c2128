import { occurrenceAt } from './occurrences';

describe('reminder occurrences', () => {
  const at = (iso: string) => new Date(iso);

  it('counts days and weeks as fixed lengths', () => {
    const anchor = at('2027-01-01T09:00:00.000Z');
    expect(occurrenceAt(anchor, { every: 3, unit: 'day' }, 2).toISOString()).toBe(
      '2027-01-07T09:00:00.000Z',
    );
    expect(occurrenceAt(anchor, { every: 2, unit: 'week' }, 1).toISOString()).toBe(
      '2027-01-15T09:00:00.000Z',
    );
    expect(occurrenceAt(anchor, { every: 2, unit: 'week' }, 0)).toEqual(anchor);
  });

  it('keeps the day of the month, or the last day of a shorter month, without drifting', () => {
    const anchor = at('2027-01-31T17:30:00.000Z');
    const monthly = (index: number) =>
      occurrenceAt(anchor, { every: 1, unit: 'month' }, index).toISOString();
    expect(monthly(1)).toBe('2027-02-28T17:30:00.000Z');
    expect(monthly(2)).toBe('2027-03-31T17:30:00.000Z');
    expect(monthly(3)).toBe('2027-04-30T17:30:00.000Z');
    expect(monthly(13)).toBe('2028-02-29T17:30:00.000Z');
  });

  it('crosses years every six months', () => {
    const anchor = at('2026-11-15T08:00:00.000Z');
    expect(occurrenceAt(anchor, { every: 6, unit: 'month' }, 1).toISOString()).toBe(
      '2027-05-15T08:00:00.000Z',
    );
    expect(occurrenceAt(anchor, { every: 6, unit: 'month' }, 4).toISOString()).toBe(
      '2028-11-15T08:00:00.000Z',
    );
  });
});
