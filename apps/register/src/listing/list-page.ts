import {
  ASSET_UNPAGED_MAX,
  RawJson,
  UNPAGED_MAX_BYTES,
  type ListReply,
} from '@custodian/contracts';
import { readList, rowsVersionSql, type ListCache, type ListSource } from '@custodian/register-sql';
import type { Queryable } from '@custodian/persistence';
import { createHash } from 'node:crypto';
import type { ReadTransactions } from '../requests/read-transactions';
import type { ListQuery } from './list-query';
import { jsonArrayWithin } from './json-array-within';
import type { SharedRuns } from './shared-runs';

export interface ListSpec<Row extends { id: string }, Out> extends ListSource {
  workspaceId: string;
  query: ListQuery<string>;
  map: (row: Row) => Out;
  /** How this build writes the list's rows (bytesFormat): part of the bare array's tag. */
  format: string;
}

/**
 * What a bare array's bytes look like in this build, for a list read with `columns` and
 * mapped by `mapper`: a short hash of both and of the array's limits. It is the first half of
 * the bytes' tag, so the bytes a gateway kept from another build of the register (a rolling
 * deploy that changed a field) are never taken for current, whatever the rows version says.
 */
export function bytesFormat(columns: string, mapper: (row: never) => unknown): string {
  return createHash('sha256')
    .update(`${columns}\n${mapper.toString()}\n${UNPAGED_MAX_BYTES}\n${ASSET_UNPAGED_MAX}`)
    .digest('hex')
    .slice(0, 12);
}

/**
 * One list route's answer (readList in @custodian/register-sql makes the reads): a bare array
 * of at most 10,000 without `page`, else the page and its exact total. The bare array is its
 * JSON bytes, made once, cut at UNPAGED_MAX_BYTES (json-array-within.ts) and passed through to
 * the HTTP response as they are, tagged with this build's format and the rows version they
 * were read at. `db` is the request's read transaction (ReadTransactions): one connection and
 * one snapshot, its statements one after another, each cancelled at the request's deadline.
 */
export async function listPage<Row extends { id: string }, Out>(
  db: Queryable,
  spec: ListSpec<Row, Out>,
  cache: ListCache,
): Promise<ListReply<Out>> {
  const { query } = spec;
  const { rows, total, rowsVersion } = await readList<Row>(
    (sql, params) => db.query(sql, params),
    spec,
    spec.workspaceId,
    query,
    cache,
    ASSET_UNPAGED_MAX,
  );
  if (query.page === null || total === null) {
    const { json } = jsonArrayWithin(rows, spec.map, UNPAGED_MAX_BYTES);
    return new RawJson(json, `${spec.format}.${rowsVersion ?? '0'}`);
  }
  return { data: rows.map(spec.map), page: query.page, pageSize: query.pageSize, total };
}

/** What a list route of a service answers with (answerList). */
export interface ListRoute<Out> {
  reads: ReadTransactions;
  /** The unpaged array's runs: callers of the same one share the next (SharedRuns). */
  unpaged: SharedRuns<ListReply<Out>>;
  cache: ListCache;
}

/**
 * A list route's answer: a page, read as a heavy read; or the bare array, answered
 * ListUnchanged after one primary-key read when the caller quotes the tag of bytes still
 * current (`known`, the gateway's copy), else read once for every caller waiting for it.
 */
export async function answerList<Row extends { id: string }, Out>(
  route: ListRoute<Out>,
  spec: ListSpec<Row, Out>,
  known: string | undefined,
): Promise<ListReply<Out>> {
  const read = () => route.reads.heavy((db) => listPage(db, spec, route.cache));
  if (spec.query.page !== null) return read();
  if (
    known !== undefined &&
    (await route.reads.run((db) =>
      bytesStillCurrent(db, spec, spec.workspaceId, spec.format, known),
    ))
  ) {
    return { unchanged: known };
  }
  return route.unpaged.run(JSON.stringify([spec.workspaceId, spec.query]), read);
}

/**
 * True when the bare array's bytes tagged `known` are what a read now would make: this
 * build's format, and nothing they show changed since (the workspace's rows version, bumped
 * by triggers in the transaction of every such change). One primary-key read.
 */
export async function bytesStillCurrent(
  db: Queryable,
  source: Pick<ListSource, 'rowsVersion'>,
  workspaceId: string,
  format: string,
  known: string,
): Promise<boolean> {
  if (!known.startsWith(`${format}.`)) return false;
  const [row] = await db.query<Array<{ rows_version: string }>>(rowsVersionSql(source), [
    workspaceId,
  ]);
  return known === `${format}.${row?.rows_version ?? '0'}`;
}
