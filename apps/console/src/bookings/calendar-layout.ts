import type { Booking, BookingStatus } from '@custodian/console-client';

// The calendar's geometry, pure so the tests pin it: the days a week or a month shows, one lane
// per asset, each booking placed on the day columns it covers (clipped to what is shown), and
// the rows a lane needs so that nothing drawn overlaps.

export type CalendarView = 'week' | 'month';

export interface CalendarRange {
  view: CalendarView;
  /** The first shown day's start, in the reader's time. */
  from: Date;
  /** The start of the day after the last one shown. */
  to: Date;
  /** The start of each day shown. */
  days: Date[];
}

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The week (Monday to Sunday) or the month around `anchor`, day by day. */
export function calendarRange(view: CalendarView, anchor: Date): CalendarRange {
  const day = startOfDay(anchor);
  const from =
    view === 'week'
      ? addDays(day, -((day.getDay() + 6) % 7))
      : new Date(day.getFullYear(), day.getMonth(), 1);
  const to =
    view === 'week' ? addDays(from, 7) : new Date(from.getFullYear(), from.getMonth() + 1, 1);
  const days: Date[] = [];
  for (let shown = from; shown < to; shown = addDays(shown, 1)) days.push(shown);
  return { view, from, to, days };
}

/** The anchor of the week or month before (-1) or after (1). */
export function shiftAnchor(view: CalendarView, anchor: Date, step: -1 | 1): Date {
  if (view === 'week') return addDays(startOfDay(anchor), 7 * step);
  return new Date(anchor.getFullYear(), anchor.getMonth() + step, 1);
}

/** Where a stretch sits on the day columns: the first (0-based) and how many. */
export interface Placement {
  column: number;
  span: number;
  /** It began before the first day shown. */
  clippedStart: boolean;
  /** It goes on after the last day shown. */
  clippedEnd: boolean;
}

/** The column of the day an instant falls in (the range's days hold it). */
function columnOf(range: CalendarRange, at: Date): number {
  const next = range.days.findIndex((day) => day > at);
  return (next === -1 ? range.days.length : next) - 1;
}

/**
 * A stretch [from, to) on the range's day columns, clipped to it; null when it lies outside.
 * A stretch of no length (a due date) takes the column of its day.
 */
export function place(range: CalendarRange, from: Date, to: Date): Placement | null {
  const instant = from.getTime() === to.getTime();
  if (instant ? from < range.from || from >= range.to : to <= range.from || from >= range.to) {
    return null;
  }
  const shownFrom = from < range.from ? range.from : from;
  const shownTo = to > range.to ? range.to : to;
  const first = columnOf(range, shownFrom);
  const last = instant ? first : columnOf(range, new Date(shownTo.getTime() - 1));
  return {
    column: first,
    span: Math.max(1, last - first + 1),
    clippedStart: from < range.from,
    clippedEnd: to > range.to,
  };
}

export type LaneItemKind = 'booking' | 'due' | 'check_out';

export interface LaneItem {
  kind: LaneItemKind;
  /** The booking's id; for a check-out by hand, the asset's. */
  id: string;
  /** Who: the booking's person, or whom the asset is checked out to. */
  person: string;
  status: BookingStatus | null;
  from: string;
  to: string | null;
  placement: Placement;
  /** The row of the lane it is drawn on, from 0. */
  row: number;
}

export interface Lane {
  assetId: string;
  assetName: string;
  assetTag: string | null;
  items: LaneItem[];
  /** Rows the lane needs: at least 1. */
  rows: number;
}

/** A check-out by hand of an asset (its availability): open-ended when `to` is null. */
export interface HandCheckOut {
  assetId: string;
  from: string;
  to: string | null;
  person: string;
}

/** The statuses a calendar shows: what holds or held its assets, never what was called off. */
const SHOWN: readonly BookingStatus[] = [
  'requested',
  'confirmed',
  'checked_out',
  'overdue',
  'completed',
];

/** Gives each item the first row where it overlaps no item already placed. */
function stack(items: Omit<LaneItem, 'row'>[]): { items: LaneItem[]; rows: number } {
  const sorted = [...items].sort(
    (a, b) =>
      a.placement.column - b.placement.column ||
      a.from.localeCompare(b.from) ||
      a.id.localeCompare(b.id),
  );
  const rowEnds: number[] = [];
  const placed = sorted.map((item) => {
    const { column, span } = item.placement;
    let row = rowEnds.findIndex((end) => end <= column);
    if (row === -1) row = rowEnds.length;
    rowEnds[row] = column + span;
    return { ...item, row };
  });
  return { items: placed, rows: Math.max(1, rowEnds.length) };
}

/**
 * One lane per asset that has something in the range, by name: its bookings, a due date for a
 * booking handed out (its end), and its check-outs by hand (their due date when they have one).
 */
export function calendarLanes(
  range: CalendarRange,
  bookings: readonly Booking[],
  checkOuts: readonly HandCheckOut[] = [],
): Lane[] {
  const lanes = new Map<string, Omit<Lane, 'rows'>>();
  const laneOf = (id: string, name: string, tag: string | null) => {
    let lane = lanes.get(id);
    if (!lane) {
      lane = { assetId: id, assetName: name, assetTag: tag, items: [] };
      lanes.set(id, lane);
    }
    return lane;
  };
  for (const booking of bookings) {
    if (!SHOWN.includes(booking.status)) continue;
    const from = new Date(booking.starts_at);
    const to = new Date(booking.ends_at);
    const placement = place(range, from, to);
    const handedOut = booking.status === 'checked_out' || booking.status === 'overdue';
    const due = handedOut ? place(range, to, to) : null;
    for (const asset of booking.assets) {
      if (!placement && !due) continue;
      const lane = laneOf(asset.id, asset.name, asset.asset_tag ?? null);
      const base = {
        id: booking.id,
        person: booking.person.name,
        status: booking.status,
        from: booking.starts_at,
        to: booking.ends_at,
      };
      if (placement) lane.items.push({ ...base, kind: 'booking', placement, row: 0 });
      if (due && asset.returned_at === null) {
        lane.items.push({ ...base, kind: 'due', from: booking.ends_at, placement: due, row: 0 });
      }
    }
  }
  for (const checkOut of checkOuts) {
    const lane = lanes.get(checkOut.assetId);
    if (!lane) continue;
    const from = new Date(checkOut.from);
    const to = checkOut.to ? new Date(checkOut.to) : range.to;
    const placement = place(range, from, to > from ? to : from);
    if (!placement) continue;
    lane.items.push({
      kind: 'check_out',
      id: checkOut.assetId,
      person: checkOut.person,
      status: null,
      from: checkOut.from,
      to: checkOut.to,
      placement: { ...placement, clippedEnd: placement.clippedEnd || checkOut.to === null },
      row: 0,
    });
  }
  return [...lanes.values()]
    .map((lane) => ({ ...lane, ...stack(lane.items) }))
    .sort((a, b) => a.assetName.localeCompare(b.assetName) || a.assetId.localeCompare(b.assetId));
}
