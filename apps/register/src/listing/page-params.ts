import { DomainError } from '@custodian/contracts';

/** The pages a paged list of a module's records may ask for (`page`, from 1). */
const PAGE_MAX = 1_000_000;

/**
 * `page` and `pageSize` of a module's list query (bookings, requests, licences), as the query
 * string sends them: whole numbers, `page` 1 by default, `pageSize` up to `maxSize`; anything
 * else is a 400 naming the parameter.
 */
export function pageParams(
  query: { page?: string; pageSize?: string },
  defaultSize: number,
  maxSize: number,
): { page: number; pageSize: number } {
  return {
    page: whole(query.page, 'page', PAGE_MAX, 1),
    pageSize: whole(query.pageSize, 'pageSize', maxSize, defaultSize),
  };
}

function whole(raw: string | undefined, name: string, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new DomainError('invalid_input', `${name} must be a whole number from 1 to ${max}`);
  }
  return value;
}
