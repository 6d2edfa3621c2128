import { ASSET_UNPAGED_MAX } from '@custodian/contracts';
import {
  ASSET_BY_ID,
  ASSET_LIST,
  AVAILABILITY_ASSET,
  BUSY_INTERVALS,
  ListCache,
  bookingPageSql,
  readList,
} from '@custodian/register-sql';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { BARE_WORKSPACE_HEADER } from './read-cases';

/**
 * The lower bound the full path is measured against: the same SQL (the asset and booking reads
 * of @custodian/register-sql, which the register's stores serve, and its list reads)
 * behind a bare Fastify handler, no auth, no broker, no framework. Run as its own process by
 * the bench.
 */
async function main(): Promise<void> {
  const defaultWorkspace = process.env.BENCH_WORKSPACE_ID;
  if (!defaultWorkspace) throw new Error('BENCH_WORKSPACE_ID is not set');
  const pool = new Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    // As the apps' pools (libs/persistence, createAppDataSource).
    options: '-c jit=off',
  });
  const app = Fastify({ logger: false });
  const cache = new ListCache();
  const workspaceOf = (headers: Record<string, string | string[] | undefined>) => {
    const named = headers[BARE_WORKSPACE_HEADER];
    return typeof named === 'string' ? named : defaultWorkspace;
  };

  app.get<{ Params: { id: string } }>('/assets/:id', async (request, reply) => {
    const { rows } = await pool.query(ASSET_BY_ID, [
      request.params.id,
      workspaceOf(request.headers),
    ]);
    if (!rows[0]) return reply.status(404).send({ statusCode: 404 });
    return rows[0] as object;
  });

  app.get<{ Querystring: { page?: string; pageSize?: string; search?: string; sort?: string } }>(
    '/assets',
    async (request) => {
      // The register's reads (readList, as apps/register/src/listing/list-page.ts runs them),
      // with the same plans, cache and statements one after another. The register also cuts
      // the bare array at UNPAGED_MAX_BYTES (json-array-within.ts): work in the app, not SQL,
      // which the lower bound leaves out.
      const filter = {
        search: request.query.search ?? null,
        page: request.query.page === undefined ? null : Number(request.query.page),
        pageSize: Number(request.query.pageSize ?? 50),
        sort: sortOf(request.query.sort),
      };
      const { rows, total } = await readList<{ id: string }>(
        async <R>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows as R[],
        ASSET_LIST,
        workspaceOf(request.headers),
        filter,
        cache,
        ASSET_UNPAGED_MAX,
      );
      if (filter.page === null) return rows;
      return { data: rows, page: filter.page, pageSize: filter.pageSize, total };
    },
  );

  // GET /assets/{id}/availability as BookingsService.availability reads it: the asset, then
  // its busy stretches, one statement after the other on the pool.
  app.get<{ Params: { id: string }; Querystring: { from: string; to: string } }>(
    '/assets/:id/availability',
    async (request, reply) => {
      const workspace = workspaceOf(request.headers);
      const from = new Date(request.query.from);
      const to = new Date(request.query.to);
      const { rows } = await pool.query(AVAILABILITY_ASSET, [request.params.id, workspace]);
      const asset = rows[0] as { id: string } | undefined;
      if (!asset) return reply.status(404).send({ statusCode: 404 });
      const busy = await pool.query(BUSY_INTERVALS, [workspace, asset.id, from, to]);
      return { asset, from, to, busy: busy.rows };
    },
  );

  // GET /bookings as BookingsService.list reads it: the count, then the page.
  app.get<{ Querystring: { from?: string; to?: string; page?: string; pageSize?: string } }>(
    '/bookings',
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? 50);
      const { count, rows, params } = bookingPageSql(
        {
          workspaceId: workspaceOf(request.headers),
          ...(request.query.from ? { from: new Date(request.query.from) } : {}),
          ...(request.query.to ? { to: new Date(request.query.to) } : {}),
        },
        page,
        pageSize,
      );
      const counted = await pool.query<{ total: number }>(count, params);
      const data = await pool.query(rows, params);
      return { data: data.rows, page, pageSize, total: counted.rows[0]?.total ?? 0 };
    },
  );

  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}

/** `name` or `-name` as the register parses it (apps/register/src/listing/list-query.ts). */
function sortOf(raw: string | undefined): { column: string; descending: boolean } | null {
  if (raw === undefined || raw === '') return null;
  const descending = raw.startsWith('-');
  return { column: descending ? raw.slice(1) : raw, descending };
}

void main();
