import {
  ASSET_PAGE_SIZE_DEFAULT,
  ASSET_PAGE_SIZE_MAX,
  DomainError,
  codePointLength,
  type ListSort,
  type RawQuery,
} from '@custodian/contracts';
import { findUnstorableText } from '@custodian/validation';

const KNOWN = new Set(['page', 'pageSize', 'status', 'search']);
const MAX_SEARCH = 200;
/** The most characters of an id, as the bodies take them. */
const MAX_ID = 64;

/** A parsed list query: `page` null means the bare array of the older callers. */
export interface ListQuery<S extends string> {
  page: number | null;
  pageSize: number;
  status: S | null;
  search: string | null;
  /** Only rows checked out to this person: a filter of the assets list alone. */
  assignedToId: string | null;
  /** Only rows whose warranty ends before this day: a filter of the assets list alone. */
  warrantyExpiresBefore: string | null;
  /** Only rows at this location (`location_id`)... */
  locationId: string | null;
  /** ...or anywhere under it (`include_children=true`). */
  includeChildren: boolean;
  /** Only rows of this category (`category_id`): the assets list alone. */
  categoryId: string | null;
  /** `sort`: the order asked for, or null for the list's own (oldest first). */
  sort: ListSort | null;
  /**
   * `updated_since`: only rows changed at or after this instant (as sent, so microseconds
   * survive), the list then in `updated_at, id` order.
   */
  updatedSince: string | null;
}

export interface ListFilters {
  /** Takes `assigned_to_id` (the assets list). */
  assignedTo?: boolean;
  /** Takes `warranty_expires_before` (the assets list). */
  warranty?: boolean;
  /** Takes `location_id` and `include_children` (assets, people). */
  location?: boolean;
  /** Takes `category_id` (the assets list). */
  category?: boolean;
  /** The columns `sort` may name (each indexed by workspace); none: no `sort`. */
  sorts?: readonly string[];
  /** Takes `updated_since` (assets, people: each has a (workspace_id, updated_at, id) index). */
  updatedSince?: boolean;
}

/**
 * Parses the query strings of a list route (assets, people). Unknown parameters are refused
 * by name: a typo such as `page_size` silently ignored would return the wrong page size
 * without the client knowing.
 */
export function parseListQuery<S extends string>(
  raw: RawQuery,
  statuses: readonly S[],
  filters: ListFilters = {},
): ListQuery<S> {
  for (const name of Object.keys(raw)) {
    const known =
      KNOWN.has(name) ||
      (filters.assignedTo === true && name === 'assigned_to_id') ||
      (filters.warranty === true && name === 'warranty_expires_before') ||
      (filters.location === true && (name === 'location_id' || name === 'include_children')) ||
      (filters.category === true && name === 'category_id') ||
      (filters.updatedSince === true && name === 'updated_since') ||
      (filters.sorts !== undefined && name === 'sort');
    if (!known) throw invalid(`unknown query parameter ${name}`);
  }
  const problem = findUnstorableText(raw, '');
  if (problem !== null) throw invalid(`${problem.path} ${problem.reason}`);
  const page = single(raw, 'page');
  const pageSize = single(raw, 'pageSize');
  const status = single(raw, 'status');
  const search = single(raw, 'search');
  const assignedToId = single(raw, 'assigned_to_id');
  const sort = single(raw, 'sort');
  const warrantyBefore = single(raw, 'warranty_expires_before');
  const locationId = single(raw, 'location_id');
  const includeChildren = single(raw, 'include_children');
  const categoryId = single(raw, 'category_id');
  const updatedSince = single(raw, 'updated_since');

  if (status !== undefined && !(statuses as readonly string[]).includes(status)) {
    throw invalid(`status must be one of ${statuses.join(', ')}`);
  }
  if (search !== undefined && codePointLength(search) > MAX_SEARCH) {
    throw invalid(`search must be at most ${MAX_SEARCH} characters`);
  }
  for (const [name, id] of [
    ['assigned_to_id', assignedToId],
    ['location_id', locationId],
    ['category_id', categoryId],
  ] as const) {
    const length = id === undefined ? 1 : codePointLength(id);
    if (length < 1 || length > MAX_ID) {
      throw invalid(`${name} must be between 1 and ${MAX_ID} characters`);
    }
  }
  if (includeChildren !== undefined && includeChildren !== 'true' && includeChildren !== 'false') {
    throw invalid('include_children must be true or false');
  }
  if (includeChildren === 'true' && locationId === undefined) {
    throw invalid('include_children goes with location_id (the place whose children to include)');
  }
  if (warrantyBefore !== undefined && !isCalendarDate(warrantyBefore)) {
    throw invalid('warranty_expires_before must be a date (YYYY-MM-DD)');
  }
  if (updatedSince !== undefined && !isInstant(updatedSince)) {
    throw invalid(
      'updated_since must be a date and time with its offset, like 2026-12-01T17:00:00.000Z',
    );
  }
  const sorted = sort === undefined || sort === '' ? null : sortOf(sort, filters.sorts ?? []);
  if (updatedSince !== undefined && sorted !== null && !isUpdatedAscending(sorted)) {
    throw invalid('sort must be updated_at, or left out, with updated_since');
  }
  return {
    page: page === undefined ? null : integerIn('page', page, 1, 1_000_000_000),
    pageSize:
      pageSize === undefined
        ? ASSET_PAGE_SIZE_DEFAULT
        : integerIn('pageSize', pageSize, 1, ASSET_PAGE_SIZE_MAX),
    status: (status as S | undefined) ?? null,
    search: search === undefined || search.trim() === '' ? null : search.trim(),
    assignedToId: assignedToId ?? null,
    warrantyExpiresBefore: warrantyBefore ?? null,
    locationId: locationId ?? null,
    includeChildren: includeChildren === 'true',
    categoryId: categoryId ?? null,
    // Changed since: oldest change first, so a client can carry on from its last row's.
    sort: updatedSince === undefined ? sorted : UPDATED_ASCENDING,
    updatedSince: updatedSince ?? null,
  };
}

const UPDATED_ASCENDING: ListSort = { column: 'updated_at', descending: false };

function isUpdatedAscending(sort: ListSort): boolean {
  return sort.column === 'updated_at' && !sort.descending;
}

/** An instant with its offset, seconds and up to microseconds: `2026-12-01T17:00:00.123456Z`. */
function isInstant(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value)) &&
    isCalendarDate(value.slice(0, 10))
  );
}

/** `name` ascending, `-name` descending; the list's default order is no sort at all. */
function sortOf(raw: string, columns: readonly string[]): ListSort | null {
  const descending = raw.startsWith('-');
  const column = descending ? raw.slice(1) : raw;
  if (!columns.includes(column)) {
    throw invalid(
      `sort must be one of ${columns.join(', ')}, each with - before it for descending`,
    );
  }
  return column === 'created_at' && !descending ? null : { column, descending };
}

/** `YYYY-MM-DD` of a day that exists (2027-02-30 does not). */
function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function single(raw: RawQuery, name: string): string | undefined {
  const value = raw[name];
  if (Array.isArray(value)) throw invalid(`${name} must be given once`);
  return value;
}

function integerIn(name: string, value: string, min: number, max: number): number {
  const parsed = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    throw invalid(
      max === ASSET_PAGE_SIZE_MAX
        ? `${name} must be an integer from ${min} to ${max}`
        : `${name} must be an integer of at least ${min}`,
    );
  }
  return parsed;
}

function invalid(message: string): DomainError {
  return new DomainError('invalid_input', message);
}
