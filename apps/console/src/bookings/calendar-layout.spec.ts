import type { Booking } from '@custodian/console-client';
import { calendarLanes, calendarRange, place, shiftAnchor } from './calendar-layout';

// Local times throughout: the calendar draws the reader's days.
const at = (day: number, hour = 0, month = 11) => new Date(2026, month, day, hour);

function booking(
  id: string,
  from: Date,
  to: Date,
  assets: Array<[string, string]>,
  status: Booking['status'] = 'confirmed',
): Booking {
  return {
    id,
    status,
    person: { id: 'per_1', name: 'Ada' },
    assets: assets.map(([assetId, name]) => ({
      id: assetId,
      name,
      asset_tag: `${name.toUpperCase()}-1`,
      returned_at: null,
    })),
    starts_at: from.toISOString(),
    ends_at: to.toISOString(),
    notes: null,
    cancellation: null,
    checked_out_at: null,
    completed_at: null,
    created_at: from.toISOString(),
    updated_at: from.toISOString(),
  };
}

describe('calendarRange', () => {
  it('shows the week from Monday to Sunday around the day', () => {
    // Thursday 3 December 2026.
    const week = calendarRange('week', at(3, 15));
    expect(week.from).toEqual(at(30, 0, 10));
    expect(week.to).toEqual(at(7));
    expect(week.days).toHaveLength(7);
    expect(week.days[0]!.getDay()).toBe(1);
    // A Sunday belongs to the week before it.
    expect(calendarRange('week', at(6, 23)).from).toEqual(at(30, 0, 10));
  });

  it('shows the whole month, day by day', () => {
    const month = calendarRange('month', at(17, 9));
    expect(month.from).toEqual(at(1));
    expect(month.to).toEqual(new Date(2027, 0, 1));
    expect(month.days).toHaveLength(31);
    expect(calendarRange('month', new Date(2027, 1, 10)).days).toHaveLength(28);
  });

  it('steps a week or a month back and forth', () => {
    expect(shiftAnchor('week', at(3, 15), 1)).toEqual(at(10));
    expect(shiftAnchor('week', at(3, 15), -1)).toEqual(at(26, 0, 10));
    expect(shiftAnchor('month', at(31), 1)).toEqual(new Date(2027, 0, 1));
    expect(shiftAnchor('month', at(31), -1)).toEqual(at(1, 0, 10));
  });
});

describe('place', () => {
  const week = calendarRange('week', at(3)); // Monday 30 Nov to Sunday 6 Dec

  it('puts a booking on the columns of the days it covers', () => {
    // Tuesday 9:00 to Thursday 12:00: columns 1 to 3.
    expect(place(week, at(1, 9), at(3, 12))).toEqual({
      column: 1,
      span: 3,
      clippedStart: false,
      clippedEnd: false,
    });
    // Within one day.
    expect(place(week, at(2, 9), at(2, 17))).toMatchObject({ column: 2, span: 1 });
    // Ending at midnight takes no column of the next day.
    expect(place(week, at(2, 9), at(3, 0))).toMatchObject({ column: 2, span: 1 });
  });

  it('clips what starts before or ends after the week', () => {
    expect(place(week, at(25, 9, 10), at(1, 12))).toEqual({
      column: 0,
      span: 2,
      clippedStart: true,
      clippedEnd: false,
    });
    expect(place(week, at(5, 9), at(9, 12))).toEqual({
      column: 5,
      span: 2,
      clippedStart: false,
      clippedEnd: true,
    });
    expect(place(week, at(20, 0, 10), at(20))).toEqual({
      column: 0,
      span: 7,
      clippedStart: true,
      clippedEnd: true,
    });
  });

  it('leaves out what lies outside, and places a due date on its day', () => {
    expect(place(week, at(7, 9), at(8))).toBeNull();
    expect(place(week, at(20, 0, 10), at(30, 0, 10))).toBeNull();
    expect(place(week, at(4, 18), at(4, 18))).toMatchObject({ column: 4, span: 1 });
    expect(place(week, at(7), at(7))).toBeNull();
  });

  it('places a booking on the days of a month', () => {
    const month = calendarRange('month', at(3));
    expect(place(month, at(30, 9), at(2, 9, 12))).toEqual({
      column: 29,
      span: 2,
      clippedStart: false,
      clippedEnd: true,
    });
  });
});

describe('calendarLanes', () => {
  const week = calendarRange('week', at(3));

  it('gives each asset a lane, by name, with its bookings in the week', () => {
    const lanes = calendarLanes(week, [
      booking('bkg_1', at(1, 9), at(1, 17), [
        ['ast_2', 'Tripod'],
        ['ast_1', 'Camera'],
      ]),
      booking('bkg_2', at(3, 9), at(4, 17), [['ast_1', 'Camera']]),
      booking('bkg_3', at(20), at(21), [['ast_3', 'Next month only']]),
      booking('bkg_4', at(2), at(3), [['ast_4', 'Cancelled']], 'cancelled'),
    ]);
    expect(lanes.map((lane) => [lane.assetName, lane.items.map((item) => item.id)])).toEqual([
      ['Camera', ['bkg_1', 'bkg_2']],
      ['Tripod', ['bkg_1']],
    ]);
    expect(lanes[0]!.rows).toBe(1);
    expect(lanes[0]!.items.map((item) => item.placement.column)).toEqual([1, 3]);
  });

  it('stacks bookings of one lane that share a day on rows of their own', () => {
    const [lane] = calendarLanes(week, [
      booking('bkg_1', at(1, 9), at(1, 11), [['ast_1', 'Camera']]),
      booking('bkg_2', at(1, 13), at(2, 11), [['ast_1', 'Camera']]),
      booking('bkg_3', at(3, 9), at(3, 11), [['ast_1', 'Camera']]),
    ]);
    expect(lane!.items.map((item) => [item.id, item.row])).toEqual([
      ['bkg_1', 0],
      ['bkg_2', 1],
      ['bkg_3', 0],
    ]);
    expect(lane!.rows).toBe(2);
  });

  it('marks the due date of a booking handed out, and the check-outs by hand of its lanes', () => {
    const lanes = calendarLanes(
      week,
      [booking('bkg_1', at(1, 9), at(4, 17), [['ast_1', 'Camera']], 'checked_out')],
      [
        { assetId: 'ast_1', from: at(5, 9).toISOString(), to: null, person: 'Grace' },
        { assetId: 'ast_9', from: at(1).toISOString(), to: at(2).toISOString(), person: 'X' },
      ],
    );
    expect(lanes).toHaveLength(1);
    expect(
      lanes[0]!.items.map((item) => [item.kind, item.placement.column, item.placement.clippedEnd]),
    ).toEqual([
      ['booking', 1, false],
      ['due', 4, false],
      ['check_out', 5, true],
    ]);
  });
});
