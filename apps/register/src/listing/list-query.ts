import {
  ASSET_PAGE_SIZE_DEFAULT,
  ASSET_PAGE_SIZE_MAX,
  DomainError,
  codePointLength,
  type RawQuery,
} from '@custodian/contracts';
import { findUnstorableText } from '@custodian/validation';

const KNOWN = new Set(['page', 'pageSize', 'status', 'search']);
const MAX_SEARCH = 200;

/** A parsed list query: `page` null means the bare array of the older callers. */
export interface ListQuery<S extends string> {
  page: number | null;
  pageSize: number;
  status: S | null;
  search: string | null;
}

/**
 * Parses the query strings of a list route (assets, people). Unknown parameters are refused
 * by name: a typo such as `page_size` silently ignored would return the wrong page size
 * without the client knowing.
 */
export function parseListQuery<S extends string>(
  raw: RawQuery,
  statuses: readonly S[],
): ListQuery<S> {
  for (const name of Object.keys(raw)) {
    if (!KNOWN.has(name)) throw invalid(`unknown query parameter ${name}`);
  }
  const problem = findUnstorableText(raw, '');
  if (problem !== null) throw invalid(`${problem.path} ${problem.reason}`);
  const page = single(raw, 'page');
  const pageSize = single(raw, 'pageSize');
  const status = single(raw, 'status');
  const search = single(raw, 'search');

  if (status !== undefined && !(statuses as readonly string[]).includes(status)) {
    throw invalid(`status must be one of ${statuses.join(', ')}`);
  }
  if (search !== undefined && codePointLength(search) > MAX_SEARCH) {
    throw invalid(`search must be at most ${MAX_SEARCH} characters`);
  }
  return {
    page: page === undefined ? null : integerIn('page', page, 1, 1_000_000_000),
    pageSize:
      pageSize === undefined
        ? ASSET_PAGE_SIZE_DEFAULT
        : integerIn('pageSize', pageSize, 1, ASSET_PAGE_SIZE_MAX),
    status: (status as S | undefined) ?? null,
    search: search === undefined || search.trim() === '' ? null : search.trim(),
  };
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
