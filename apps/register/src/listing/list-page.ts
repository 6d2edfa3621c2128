import {
  ASSET_UNPAGED_MAX,
  RawJson,
  UNPAGED_MAX_BYTES,
  type ListReply,
} from '@custodian/contracts';
import {
  isFiltered,
  listSql,
  listTuning,
  workspaceCounterSql,
  type ListSource,
} from '@custodian/register-sql';
import type { Queryable } from '@custodian/persistence';
import type { ListQuery } from './list-query';
import { jsonArrayWithin } from './json-array-within';

export interface ListSpec<Row, Out> extends ListSource {
  workspaceId: string;
  query: ListQuery<string>;
  map: (row: Row) => Out;
}

/**
 * One list route's rows: ordered by created_at then id, a bare array of at most 10,000 without
 * `page`, else the page and an exact total (the workspace counter when unfiltered, kept with
 * every insert, instead of counting every row on each page 1). The bare array is its JSON
 * bytes, made once, cut at UNPAGED_MAX_BYTES (json-array-within.ts) and passed through to the
 * HTTP response as they are. `db` is the request's read transaction (ReadTransactions):
 * one connection, its statements one after another, each cancelled at the request's deadline.
 */
export async function listPage<Row, Out>(
  db: Queryable,
  spec: ListSpec<Row, Out>,
): Promise<ListReply<Out>> {
  const { query } = spec;
  const small =
    isFiltered(query) && (await workspaceRows(db, spec)) <= listTuning.smallWorkspaceRows;
  const sql = listSql(spec, query, small, ASSET_UNPAGED_MAX);
  const params = [spec.workspaceId, ...sql.params];
  const rows = await db.query<Row[]>(sql.rows, params);
  if (query.page === null) {
    return new RawJson(jsonArrayWithin(rows, spec.map, UNPAGED_MAX_BYTES).json);
  }
  // After the rows, not beside them: `db` is one connection (the request's read transaction).
  const total =
    sql.count === null
      ? await workspaceRows(db, spec)
      : ((await db.query<Array<{ total: number }>>(sql.count, params))[0]?.total ?? 0);
  return { data: rows.map(spec.map), page: query.page, pageSize: query.pageSize, total };
}

/** The workspace's records, from the counter kept with every insert and delete. */
async function workspaceRows(
  db: Queryable,
  spec: Pick<ListSpec<unknown, unknown>, 'counter' | 'workspaceId'>,
): Promise<number> {
  const [row] = await db.query<Array<{ total: number }>>(workspaceCounterSql(spec), [
    spec.workspaceId,
  ]);
  return row?.total ?? 0;
}
