import { ASSET_UNPAGED_MAX, UNPAGED_MAX_BYTES, type Page } from '@custodian/contracts';
import { readList, type ListCache, type ListSource } from '@custodian/register-sql';
import type { Queryable } from '@custodian/persistence';
import type { ListQuery } from './list-query';
import { withinBytes } from './within-bytes';

export interface ListSpec<Row extends { id: string }, Out> extends ListSource {
  workspaceId: string;
  query: ListQuery<string>;
  map: (row: Row) => Out;
}

/**
 * One list route's answer (readList in @custodian/register-sql makes the reads): a bare array
 * of at most 10,000 without `page`, else the page and its exact total. The bare array is cut,
 * as at 10,000 rows, where its JSON would pass UNPAGED_MAX_BYTES: rows at their size limits
 * would otherwise make it some 86 MB, serialised in the register, carried over RabbitMQ and
 * parsed and serialised again in the gateway. `db` is the request's read transaction
 * (ReadTransactions): one connection and one snapshot, its statements one after another, each
 * cancelled at the request's deadline.
 */
export async function listPage<Row extends { id: string }, Out>(
  db: Queryable,
  spec: ListSpec<Row, Out>,
  cache: ListCache,
): Promise<Out[] | Page<Out>> {
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
    return withinBytes(rows.map(spec.map), UNPAGED_MAX_BYTES);
  }
  return { data: rows.map(spec.map), page: query.page, pageSize: query.pageSize, total };
}
