import { useQueries, useQuery } from '@tanstack/react-query';
import type { CSSProperties } from 'react';
import { Link, useSearchParams } from 'react-router';
import { getAvailability } from '../api/bookings.api';
import { formatDateTime } from '../shared/format';
import { Notice } from '../shared/notices';
import { QUERY_ROOT } from '../shared/query-keys';
import { QueryState } from '../shared/query-state';
import { usePageTitle } from '../shared/use-page-title';
import { BOOKING_STATUS_LABEL } from './booking-values';
import { bookingQueries } from './bookings.queries';
import {
  type CalendarView,
  type HandCheckOut,
  type Lane,
  type LaneItem,
  calendarLanes,
  calendarRange,
  shiftAnchor,
} from './calendar-layout';

/** The most bookings one view reads (the API's page size at most). */
const SHOWN_MAX = 200;
/** Lanes whose check-outs by hand are read (one availability call each). */
const CHECK_OUT_LANES_MAX = 30;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayText(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The week or month of `?view=&day=`, this week by default. */
function viewOf(params: URLSearchParams): { view: CalendarView; anchor: Date } {
  const view: CalendarView = params.get('view') === 'month' ? 'month' : 'week';
  const day = params.get('day') ?? '';
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const anchor = DAY.test(day) ? new Date(year, month - 1, date) : new Date();
  return { view, anchor: Number.isNaN(anchor.getTime()) ? new Date() : anchor };
}

export function CalendarPage() {
  usePageTitle('Booking calendar');
  const [params, setParams] = useSearchParams();
  const { view, anchor } = viewOf(params);
  const range = calendarRange(view, anchor);
  const bookings = useQuery(
    bookingQueries.list({
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      page: '1',
      pageSize: String(SHOWN_MAX),
    }),
  );
  const go = (next: CalendarView, day: Date) =>
    setParams(new URLSearchParams({ view: next, day: dayText(day) }));
  const title =
    view === 'week'
      ? `${range.days[0]?.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} – ${range.days[6]?.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`
      : range.from.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });

  return (
    <div className="page page-wide">
      <p className="breadcrumb">
        <Link to="/bookings">Bookings</Link>
      </p>
      <div className="page-head">
        <h1>Calendar</h1>
        <div className="actions">
          <div className="segmented" role="group" aria-label="View">
            <button type="button" aria-pressed={view === 'week'} onClick={() => go('week', anchor)}>
              Week
            </button>
            <button
              type="button"
              aria-pressed={view === 'month'}
              onClick={() => go('month', anchor)}
            >
              Month
            </button>
          </div>
          <button type="button" onClick={() => go(view, shiftAnchor(view, anchor, -1))}>
            Previous
          </button>
          <button type="button" onClick={() => go(view, new Date())}>
            Today
          </button>
          <button type="button" onClick={() => go(view, shiftAnchor(view, anchor, 1))}>
            Next
          </button>
        </div>
      </div>
      <h2 className="calendar-title">{title}</h2>
      <QueryState query={bookings} what="the calendar">
        {(found) => (
          <>
            {found.total > found.data.length && (
              <Notice tone="warning">
                Showing the first {found.data.length} of {found.total} bookings of this {view}; the
                list of bookings has them all.
              </Notice>
            )}
            <CalendarGrid range={range} bookings={found.data} />
          </>
        )}
      </QueryState>
    </div>
  );
}

function CalendarGrid({
  range,
  bookings,
}: {
  range: ReturnType<typeof calendarRange>;
  bookings: Parameters<typeof calendarLanes>[1];
}) {
  const bookedLanes = calendarLanes(range, bookings);
  // Each lane's check-outs by hand (its availability), for the first lanes.
  const availability = useQueries({
    queries: bookedLanes.slice(0, CHECK_OUT_LANES_MAX).map((lane) => ({
      queryKey: [
        QUERY_ROOT.bookings,
        'availability',
        lane.assetId,
        range.from.toISOString(),
        range.to.toISOString(),
      ],
      queryFn: () =>
        getAvailability(lane.assetId, range.from.toISOString(), range.to.toISOString()),
    })),
  });
  const checkOuts: HandCheckOut[] = availability.flatMap((result) =>
    (result.data?.busy ?? [])
      .filter((busy) => busy.kind === 'check_out')
      .map((busy) => ({
        assetId: result.data?.asset.id ?? '',
        from: busy.from,
        to: busy.to,
        person: busy.person.name,
      })),
  );
  const lanes = calendarLanes(range, bookings, checkOuts);
  const today = dayText(new Date());
  const columns = { '--days': range.days.length } as CSSProperties;

  return (
    <div className={`calendar calendar-${range.view}`} style={columns}>
      <div className="calendar-head" role="row">
        <div className="calendar-corner">Asset</div>
        {range.days.map((day) => (
          <div
            key={day.toISOString()}
            className={`calendar-day${dayText(day) === today ? ' calendar-today' : ''}`}
          >
            {range.view === 'week'
              ? day.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' })
              : day.getDate()}
          </div>
        ))}
      </div>
      {lanes.length === 0 && <p className="calendar-empty">No bookings in this {range.view}.</p>}
      {lanes.map((lane) => (
        <CalendarLane
          key={lane.assetId}
          lane={lane}
          days={range.days.length}
          week={range.view === 'week'}
        />
      ))}
      <p className="hint calendar-legend">
        <span className="calendar-key calendar-item-requested" /> Requested{' '}
        <span className="calendar-key calendar-item-confirmed" /> Confirmed{' '}
        <span className="calendar-key calendar-item-checked_out" /> Checked out{' '}
        <span className="calendar-key calendar-item-overdue" /> Overdue{' '}
        <span className="calendar-key calendar-item-completed" /> Completed{' '}
        <span className="calendar-key calendar-item-due" /> Due back{' '}
        <span className="calendar-key calendar-item-check_out" /> Checked out by hand
      </p>
    </div>
  );
}

function CalendarLane({ lane, days, week }: { lane: Lane; days: number; week: boolean }) {
  const style = { gridTemplateRows: `repeat(${lane.rows}, 1.9rem)` } as CSSProperties;
  return (
    <div className="calendar-lane" aria-label={lane.assetName}>
      <div className="calendar-asset">
        <Link to={`/assets/${lane.assetId}`}>{lane.assetName}</Link>
        {lane.assetTag && <span className="muted mono small"> {lane.assetTag}</span>}
      </div>
      <div className="calendar-track" style={style}>
        {Array.from({ length: days }, (_, column) => (
          <span
            key={column}
            className="calendar-cell"
            style={{ gridColumn: column + 1, gridRow: `1 / ${lane.rows + 1}` }}
          />
        ))}
        {lane.items.map((item) => (
          <CalendarItem key={`${item.kind}-${item.id}-${item.from}`} item={item} week={week} />
        ))}
      </div>
    </div>
  );
}

/** "14:00": when a booking starts, in the reader's time. */
function timeOf(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function CalendarItem({ item, week }: { item: LaneItem; week: boolean }) {
  const { column, span, clippedStart, clippedEnd } = item.placement;
  const style: CSSProperties = {
    gridColumn: `${column + 1} / span ${span}`,
    gridRow: item.row + 1,
  };
  const className = [
    'calendar-item',
    `calendar-item-${item.kind === 'booking' ? (item.status ?? 'confirmed') : item.kind}`,
    clippedStart ? 'calendar-clipped-start' : '',
    clippedEnd ? 'calendar-clipped-end' : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (item.kind === 'booking') {
    const title =
      `${item.person}: ${formatDateTime(item.from)} – ${formatDateTime(item.to)}` +
      (item.status ? ` (${BOOKING_STATUS_LABEL[item.status]})` : '');
    return (
      <Link to={`/bookings/${item.id}`} className={className} style={style} title={title}>
        {week && !clippedStart && <span className="calendar-time">{timeOf(item.from)} </span>}
        {item.person}
      </Link>
    );
  }
  if (item.kind === 'due') {
    return (
      <Link
        to={`/bookings/${item.id}`}
        className={className}
        style={style}
        title={`Due back from ${item.person} at ${formatDateTime(item.from)}`}
      >
        Due{' '}
        {new Date(item.from).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
      </Link>
    );
  }
  return (
    <span
      className={className}
      style={style}
      title={
        item.to
          ? `Checked out to ${item.person}, due back ${formatDateTime(item.to)}`
          : `Checked out to ${item.person}, no due date`
      }
    >
      {item.person}
      {item.to
        ? `, due ${new Date(item.to).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}`
        : ''}
    </span>
  );
}
