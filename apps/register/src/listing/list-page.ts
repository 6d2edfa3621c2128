import {
  ASSET_UNPAGED_MAX,
  RawJson,
  UNPAGED_MAX_BYTES,
  type ListReply,
} from '@custodian/contracts';
import { readList, type ListCache, type ListSource } from '@custodian/register-sql';
import type { Queryable } from '@custodian/persistence';
import type { ListQuery } from './list-query';
import { jsonArrayWithin } from './json-array-within';

export interface ListSpec<Row extends { id: string }, Out> extends ListSource {
  workspaceId: string;
  query: ListQuery<string>;
  map: (row: Row) => Out;
}

/**
 * One list route's answer (readList in @custodian/register-sql makes the reads): a bare array
 * of at most 10,000 without `page`, else the page and its exact total. The bare array is its
 * JSON bytes, made once, cut at UNPAGED_MAX_BYTES (json-array-within.ts) and passed through to
 * the HTTP response as they are. `db` is the request's read transaction (ReadTransactions):
 * one connection and one snapshot, its statements one after another, each cancelled at the
 * request's deadline.
 */
export async function listPage<Row extends { id: string }, Out>(
  db: Queryable,
  spec: ListSpec<Row, Out>,
  cache: ListCache,
): Promise<ListReply<Out>> {
  const { query } = spec;
  const { rows, total } = await readList<Row>(
    (sql, params) => db.query(sql, params),
    spec,
    spec.workspaceId,
    query,
    cache,
    ASSET_UNPAGED_MAX,
  );
  if (query.page === null || total === null) {
    return new RawJson(jsonArrayWithin(rows, spec.map, UNPAGED_MAX_BYTES).json);
  }
  return { data: rows.map(spec.map), page: query.page, pageSize: query.pageSize, total };
}
