// The delivery log's filters live in the page's URL (shareable, restored on reload, kept by
// Back). These functions convert between the URL, the form and the API's query. Pure.
import type { DeliveryFilters, DeliveryStatus, ResendFilters } from '@custodian/console-client';
import { DELIVERY_STATUSES as STATUSES } from '@custodian/contracts/constants';

/** The contract's list; `satisfies` ties it to the generated schema. */
export const DELIVERY_STATUSES = STATUSES satisfies readonly DeliveryStatus[];

/** '' is "no filter". `from` and `to` are ISO timestamps. */
export interface FilterValues {
  endpoint: string;
  event: string;
  status: DeliveryStatus | '';
  from: string;
  to: string;
}

export const NO_FILTERS: FilterValues = { endpoint: '', event: '', status: '', from: '', to: '' };
const FIELDS = ['endpoint', 'event', 'status', 'from', 'to'] as const;

function isStatus(value: string): value is DeliveryStatus {
  return (DELIVERY_STATUSES as readonly string[]).includes(value);
}

function isoOrEmpty(value: string | null): string {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}

/** The filters of a URL; a value that cannot be one (an unknown status, a bad date) is no filter. */
export function filtersFromSearch(search: URLSearchParams): FilterValues {
  const status = search.get('status') ?? '';
  return {
    endpoint: search.get('endpoint')?.trim() ?? '',
    event: search.get('event')?.trim() ?? '',
    status: isStatus(status) ? status : '',
    from: isoOrEmpty(search.get('from')),
    to: isoOrEmpty(search.get('to')),
  };
}

/** The URL's search params of the filters: only those set, always in the same order. */
export function searchFromFilters(filters: FilterValues): URLSearchParams {
  const search = new URLSearchParams();
  for (const field of FIELDS) {
    if (filters[field]) search.set(field, filters[field]);
  }
  return search;
}

export function hasFilters(filters: FilterValues): boolean {
  return FIELDS.some((field) => filters[field] !== '');
}

/** GET /console/api/deliveries's query: one page, older than `before` when given. */
export function listQuery(filters: FilterValues, before?: string, limit = 50): DeliveryFilters {
  const query: DeliveryFilters = { limit };
  if (filters.endpoint) query.endpoint = filters.endpoint;
  if (filters.event) query.event = filters.event;
  if (filters.status) query.status = filters.status;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (before) query.before = before;
  return query;
}

/** "Resend failed deliveries in this view": the same range (the API resends only failed ones). */
export function resendBody(filters: FilterValues): ResendFilters {
  const body: ResendFilters = {};
  if (filters.endpoint) body.endpoint = filters.endpoint;
  if (filters.event) body.event = filters.event;
  if (filters.from) body.from = filters.from;
  if (filters.to) body.to = filters.to;
  return body;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp as an <input type="datetime-local"> value, in the reader's time zone. */
export function isoToLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** An <input type="datetime-local"> value (the reader's time zone) as an ISO timestamp. */
export function localInputToIso(local: string): string {
  // A date-time without an offset is local time (ECMAScript's Date Time String Format).
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(local)) return '';
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
