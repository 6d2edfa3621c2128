import type { BookingListQuery, BookingStatus } from '@custodian/console-client';
import { fromLocalInput, isBookingStatus } from './booking-values';

/** The bookings list's view, all of it in the URL (`?status=&person=&asset=&from=&to=&page=`). */
export interface BookingView {
  status: BookingStatus | null;
  person: string;
  asset: string;
  /** Days (YYYY-MM-DD) in the reader's time: bookings overlapping [from, to + 1 day). */
  from: string;
  to: string;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function viewFromParams(params: URLSearchParams): BookingView {
  const page = Number(params.get('page') ?? '1');
  const status = params.get('status');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    status: isBookingStatus(status) ? status : null,
    person: params.get('person') ?? '',
    asset: params.get('asset') ?? '',
    from: day('from'),
    to: day('to'),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

export function paramsFromView(view: BookingView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.status) params.set('status', view.status);
  if (view.person) params.set('person', view.person);
  if (view.asset) params.set('asset', view.asset);
  if (view.from) params.set('from', view.from);
  if (view.to) params.set('to', view.to);
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** The day after a YYYY-MM-DD day, same form. */
function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(year, month - 1, date + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}`;
}

/** The API's query for a view: the range's days whole, in the reader's time. */
export function queryOfView(view: BookingView, pageSize: number): BookingListQuery {
  const query: BookingListQuery = { page: String(view.page), pageSize: String(pageSize) };
  if (view.status) query.status = view.status;
  if (view.person) query.person_id = view.person;
  if (view.asset) query.asset_id = view.asset;
  const from = view.from ? fromLocalInput(`${view.from}T00:00`) : null;
  const to = view.to ? fromLocalInput(`${nextDay(view.to)}T00:00`) : null;
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}
