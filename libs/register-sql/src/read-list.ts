import type { ListCache, ListKey } from './list-cache';
import {
  isFiltered,
  listSql,
  listTuning,
  workspaceCounterSql,
  type ListFilter,
  type ListSource,
} from './list-sql';

/** Runs one statement and returns its rows: the register's transaction, the bench's pool. */
export type RunSql = <R>(sql: string, params: unknown[]) => Promise<R[]>;

export interface ListRead<Row> {
  rows: Row[];
  /** The exact total of a page; null for the bare array. */
  total: number | null;
  /**
   * The bare array's: the workspace's rows version, read before the rows in the same snapshot
   * (so the rows are at least that new); '0' when the workspace has no counters row yet.
   */
  rowsVersion: string | null;
}

interface Counters {
  total: number;
  version: string | null;
  rows_version: string;
}

const NO_COUNTERS: Counters = { total: 0, version: null, rows_version: '0' };

/**
 * One list read as the register makes it, ordered by created_at then id: the page (or the
 * bare array of at most `unpagedMax`) and its exact total. The register runs it, and so does
 * the bench's bare handler, so "full path vs bare" compares everything around the same work.
 *
 * Its statements run one after another (`run` may be one connection): the workspace's counters
 * first (its records, which are the unfiltered total and decide the small-workspace plan, its
 * list version, and the rows version that tags a bare array's bytes); then the rows, which bring a filtered page's total along when it is not
 * cached; a count of its own only for a page past the end. A filtered total and
 * the previous page's last id come from `cache` while the list version is the one they were
 * taken at; run in one snapshot (the register's read transactions are REPEATABLE READ), the
 * version, the rows and the count agree.
 */
export async function readList<Row extends { id: string }>(
  run: RunSql,
  source: ListSource,
  workspaceId: string,
  filter: ListFilter,
  cache: ListCache,
  unpagedMax: number,
): Promise<ListRead<Row>> {
  const filtered = isFiltered(filter);
  const counters =
    (await run<Counters>(workspaceCounterSql(source), [workspaceId]))[0] ?? NO_COUNTERS;
  const small = filtered && counters.total <= listTuning.smallWorkspaceRows;
  const key: ListKey = {
    kind: source.table,
    workspaceId,
    status: filter.status ?? null,
    // As typed: Postgres's lower(), not JavaScript's, decides which spellings match alike.
    search: filter.search ?? null,
    assignedToId: filter.assignedToId ?? null,
    warrantyExpiresBefore: filter.warrantyExpiresBefore ?? null,
    locationId: filter.locationId ?? null,
    includeChildren: Boolean(filter.includeChildren),
    categoryId: filter.categoryId ?? null,
  };
  // No counters row: the workspace never had a record, so there is nothing to cache against.
  const { version } = counters;
  const after =
    version !== null && filter.page !== null && filter.page > 1 && !filter.sort
      ? cache.pageEnd(key, version, filter.pageSize, filter.page - 1)
      : null;
  // A row's updated_at moves on changes the list version does not count (its notes, say), so
  // a total or page end of `updated_since` is never remembered.
  const cacheable = version !== null && !filter.updatedSince;
  const cachedTotal = cacheable ? cache.total(key, version) : null;
  const sql = listSql(source, filter, {
    small,
    unpagedMax,
    after,
    counted: filtered && cachedTotal === null,
  });
  const rows = await run<Row & { list_total?: number }>(sql.rows, [workspaceId, ...sql.params]);
  if (filter.page === null) return { rows, total: null, rowsVersion: counters.rows_version };
  const last = rows.at(-1);
  // Page ends are ids in the default order: a sorted page's would send the next one astray.
  if (cacheable && last && rows.length === filter.pageSize && !filter.sort) {
    cache.setPageEnd(key, version, filter.pageSize, filter.page, last.id);
  }
  if (sql.count === null) return { rows, total: counters.total, rowsVersion: null };
  let total = cachedTotal;
  if (total === null && rows[0]?.list_total !== undefined) {
    total = rows[0].list_total;
    for (const row of rows) delete row.list_total;
  }
  if (total === null) {
    // Nothing knew it, and no row carried it: a page past the end, or a page that seeks.
    const [counted] = await run<{ total: number }>(sql.count, [workspaceId, ...sql.countParams]);
    total = counted?.total ?? 0;
  }
  if (cacheable) cache.setTotal(key, version, total);
  return { rows, total, rowsVersion: null };
}
