import { ASSET_UNPAGED_MAX, UNPAGED_MAX_BYTES, type Page } from '@custodian/contracts';
import { likePattern } from '@custodian/register-sql';
import type { DataSource } from 'typeorm';
import type { ListQuery } from './list-query';
import { withinBytes } from './within-bytes';

export interface ListSpec<Row, Out> {
  /** `SELECT ... FROM ... ` without WHERE. */
  select: string;
  /** The table the filter and count refer to, aliased as in `select` (`register.assets a`). */
  table: string;
  alias: string;
  /** Column of register.workspace_counters that holds the unfiltered total. */
  counter: 'asset_count' | 'person_count';
  workspaceId: string;
  query: ListQuery<string>;
  map: (row: Row) => Out;
}

/**
 * One list route's rows: ordered by created_at then id, a bare array of at most 10,000 without
 * `page`, else the page and an exact total (the workspace counter when unfiltered, kept with
 * every insert, instead of counting every row on each page 1). The bare array is cut, as at
 * 10,000 rows, where its JSON would pass UNPAGED_MAX_BYTES: rows at their size limits would
 * otherwise make it some 86 MB, serialised in the register, carried over RabbitMQ and parsed and
 * serialised again in the gateway.
 */
export async function listPage<Row, Out>(
  db: DataSource,
  spec: ListSpec<Row, Out>,
): Promise<Out[] | Page<Out>> {
  const { alias, query } = spec;
  const where = [`${alias}.workspace_id = $1`];
  const params: unknown[] = [spec.workspaceId];
  if (query.status) {
    params.push(query.status);
    where.push(`${alias}.status = $${params.length}`);
  }
  if (query.search) {
    params.push(likePattern(query.search));
    where.push(`${alias}.search_text LIKE lower($${params.length})`);
  }
  if (query.assignedToId) {
    params.push(query.assignedToId);
    where.push(`${alias}.assigned_to_id = $${params.length}`);
  }
  const filter = where.join(' AND ');
  const ordered = `${spec.select} WHERE ${filter} ORDER BY ${alias}.created_at, ${alias}.id`;
  if (query.page === null) {
    const rows = await db.query<Row[]>(`${ordered} LIMIT ${ASSET_UNPAGED_MAX}`, params);
    return withinBytes(rows.map(spec.map), UNPAGED_MAX_BYTES);
  }
  const offset = (query.page - 1) * query.pageSize;
  const [rows, counted] = await Promise.all([
    db.query<Row[]>(`${ordered} LIMIT ${query.pageSize} OFFSET ${offset}`, params),
    params.length === 1
      ? db.query<Array<{ total: number }>>(
          `SELECT ${spec.counter} AS total FROM register.workspace_counters WHERE workspace_id = $1`,
          params,
        )
      : db.query<Array<{ total: number }>>(
          `SELECT count(*)::int AS total FROM ${spec.table} WHERE ${filter}`,
          params,
        ),
  ]);
  return {
    data: rows.map(spec.map),
    page: query.page,
    pageSize: query.pageSize,
    total: counted[0]?.total ?? 0,
  };
}
