import { likePattern } from './like-pattern';
import { subtreeCte } from './location-tree';

/** What a list route reads: its SELECT, its table and alias, and its workspace counter. */
export interface ListSource {
  /** The columns of a row, as `SELECT` takes them. */
  columns: string;
  /** `FROM` of a row with its joins, without WHERE. */
  from: string;
  /** The table the filter and count refer to (`register.assets`), as `alias` in `select`. */
  table: string;
  alias: string;
  /** Column of register.workspace_counters that holds the workspace's records. */
  counter: 'asset_count' | 'person_count';
  /** Column of register.workspace_counters bumped by every change a list's filters can see. */
  version: 'asset_version' | 'person_version';
  /** Column of register.workspace_counters bumped by every change a list's rows show. */
  rowsVersion: 'asset_rows_version' | 'person_rows_version';
}

/** A list query's filters and page; `page` null is the bare array of at most `limit`. */
export interface ListFilter {
  status?: string | null;
  search?: string | null;
  assignedToId?: string | null;
  /** `YYYY-MM-DD`: only rows whose warranty_expires_on is before it (the assets list). */
  warrantyExpiresBefore?: string | null;
  /** Only rows at this location (`location_id`)... */
  locationId?: string | null;
  /** ...or at any place under it as well. */
  includeChildren?: boolean;
  /** Only rows of this category (the assets list). */
  categoryId?: string | null;
  /** Only rows changed at or after this instant (`updated_since`). */
  updatedSince?: string | null;
  /** A column of the table (checked by the caller against its indexed ones), or the default. */
  sort?: { column: string; descending: boolean } | null;
  page: number | null;
  pageSize: number;
}

/** The statements of one list read; `count` is null when the workspace counter is the total. */
export interface ListStatements {
  /** After the workspace ($1), which the caller puts first. */
  params: unknown[];
  /** With `counted`, each row also carries the list's total as `list_total`. */
  rows: string;
  count: string | null;
  /** `count`'s, after the workspace: `params` without the seek. */
  countParams: unknown[];
}

/**
 * Below this many records a workspace's filtered lists read its rows once and filter them;
 * at 10,000 that costs ~15 ms, about what the trigram index costs a selective term in a
 * workspace of a million. Tests set it to 0 to walk the large-workspace plans too.
 */
export const listTuning = { smallWorkspaceRows: 10_000 };

/**
 * The statement that reads a workspace's records, list version and rows version from its
 * counters (`$1`: the workspace): `total` int, `version` and `rows_version` bigint as text.
 */
export function workspaceCounterSql(
  source: Pick<ListSource, 'counter' | 'version' | 'rowsVersion'>,
): string {
  return `SELECT ${source.counter} AS total, ${source.version} AS version,
      ${source.rowsVersion} AS rows_version
    FROM register.workspace_counters WHERE workspace_id = $1`;
}

/** The statement that reads a workspace's rows version alone (`$1`: the workspace). */
export function rowsVersionSql(source: Pick<ListSource, 'rowsVersion'>): string {
  return `SELECT ${source.rowsVersion} AS rows_version
    FROM register.workspace_counters WHERE workspace_id = $1`;
}

/** True when the filters narrow the list, so the total must be counted. */
export function isFiltered(filter: ListFilter): boolean {
  return Boolean(
    filter.status ||
    filter.search ||
    filter.assignedToId ||
    filter.warrantyExpiresBefore ||
    filter.locationId ||
    filter.categoryId ||
    filter.updatedSince,
  );
}

/**
 * The SQL of one list read, ordered by created_at then id (or `filter.sort`'s column, then id,
 * in one direction: each such column has a (workspace_id, column, id) index). The register and the benchmark's
 * bare handler both run it, so the benchmark compares everything around the same statements.
 *
 * - `small` (a filtered list of a workspace of at most `listTuning.smallWorkspaceRows`): the
 *   workspace's rows are read once through its (workspace_id, ...) index and filtered. Postgres
 *   plans a search by its estimate of the term, not of the workspace: for a term common across
 *   the platform it walks the trigram index, whose entries span every workspace; a search in a
 *   workspace of 1,000 assets beside 5M others read ~55,000 entries of other tenants (235 ms)
 *   where filtering its own 1,000 rows takes ~4 ms (docs/adr/0014).
 * - The page's ids first, then its rows with their joins (a deferred join): unfiltered and by
 *   status the ids come from an index-only scan, so rows skipped by OFFSET are index entries,
 *   not table rows (offset 500,000 of 1M assets: ~35 ms instead of ~120 ms).
 * - `after`: the id of the previous page's last row, when the caller knows it (the register's
 *   ListCache): the page then seeks past that row in the order index instead of skipping
 *   OFFSET rows, so the last page of a walk costs what the first did (2-4 ms at 500,000).
 * - `counted` (a filtered page whose total nobody knows yet): the matches are found once and
 *   both counted and paged, so a selective term costs one scan of the index instead of two
 *   (~17 ms against ~34 ms). A page past the end has no row to carry the total: the caller
 *   then runs `count`.
 */
export function listSql(
  source: ListSource,
  filter: ListFilter,
  options: { small: boolean; unpagedMax: number; after?: string | null; counted?: boolean },
): ListStatements {
  const { small, unpagedMax, after = null } = options;
  const { alias } = source;
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  if (filter.status) conditions.push(`${alias}.status = ${param(filter.status)}`);
  if (filter.search) {
    conditions.push(`${alias}.search_text LIKE lower(${param(likePattern(filter.search))})`);
  }
  if (filter.assignedToId) {
    conditions.push(`${alias}.assigned_to_id = ${param(filter.assignedToId)}`);
  }
  if (filter.warrantyExpiresBefore) {
    conditions.push(`${alias}.warranty_expires_on < ${param(filter.warrantyExpiresBefore)}::date`);
  }
  if (filter.locationId) {
    const location = param(filter.locationId);
    conditions.push(
      filter.includeChildren
        ? `${alias}.location_id IN (WITH RECURSIVE ${subtreeCte('under', '$1', location)}
           SELECT id FROM under)`
        : `${alias}.location_id = ${location}`,
    );
  }
  if (filter.categoryId) conditions.push(`${alias}.category_id = ${param(filter.categoryId)}`);
  if (filter.updatedSince) {
    conditions.push(`${alias}.updated_at >= ${param(filter.updatedSince)}::timestamptz`);
  }
  const filtered = conditions.length > 0;
  const countParams = [...params];
  const scopeCte = small
    ? `scope AS MATERIALIZED (SELECT ${alias}.* FROM ${source.table} ${alias}
         WHERE ${alias}.workspace_id = $1)`
    : null;
  const scope = scopeCte ? `WITH ${scopeCte} ` : '';
  const from = small ? `scope ${alias}` : `${source.table} ${alias}`;
  const where = (extra: string[]) =>
    (small ? extra : [`${alias}.workspace_id = $1`, ...extra]).join(' AND ') || 'true';
  // Another order than the default seeks nothing: page ends are remembered in the default's.
  const sorted = filter.sort ?? null;
  const sortColumn = sorted && /^[a-z_]+$/.test(sorted.column) ? sorted.column : 'created_at';
  const direction = sorted?.descending ? ' DESC' : '';
  const seek =
    after === null || filter.page === null || sorted !== null
      ? []
      : [
          `(${alias}.created_at, ${alias}.id) > (SELECT k.created_at, k.id FROM ${source.table} k
             WHERE k.id = ${param(after)} AND k.workspace_id = $1)`,
        ];
  const order = `ORDER BY ${alias}.${sortColumn}${direction}, ${alias}.id${direction}`;
  const limit = filter.page === null ? unpagedMax : filter.pageSize;
  const offset = filter.page === null || seek.length > 0 ? 0 : (filter.page - 1) * filter.pageSize;
  const counted = Boolean(options.counted) && filter.page !== null && filtered && seek.length === 0;
  const ids = `SELECT ${alias}.id FROM ${from} WHERE ${where([...conditions, ...seek])} ${order}
    LIMIT ${limit} OFFSET ${offset}`;
  // The matches once, then their count and the page of them. Not count(*) OVER () beside the
  // page's LIMIT: Postgres 15 then costs the order index's walk as if it stopped after the
  // page, and took it for a term of 1,000 matches (880 ms instead of 26).
  const rows = counted
    ? `WITH ${[
        scopeCte,
        `matches AS MATERIALIZED (SELECT ${alias}.id, ${alias}.${sortColumn} FROM ${from}
           WHERE ${where(conditions)})`,
        `page AS MATERIALIZED (SELECT id FROM matches
           ORDER BY ${sortColumn}${direction}, id${direction} LIMIT ${limit} OFFSET ${offset})`,
      ]
        .filter(Boolean)
        .join(', ')}
       SELECT ${source.columns}, (SELECT count(*)::int FROM matches) AS list_total
       FROM ${source.from} WHERE ${alias}.id IN (SELECT id FROM page) ${order}`
    : `${scope}SELECT ${source.columns} FROM ${source.from} WHERE ${alias}.id IN (${ids}) ${order}`;
  return {
    // $1 is the workspace; the caller puts it first.
    params,
    rows,
    count:
      filter.page !== null && filtered
        ? `${scope}SELECT count(*)::int AS total FROM ${from} WHERE ${where(conditions)}`
        : null,
    countParams,
  };
}
