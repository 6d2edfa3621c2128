import { ASSET_UNPAGED_MAX } from '@custodian/contracts';
import { ASSET_BY_ID, ASSET_LIST, ListCache, readList } from '@custodian/register-sql';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { BARE_WORKSPACE_HEADER } from './read-cases';

/**
 * The lower bound the full path is measured against: the same SQL (the asset reads of
 * @custodian/register-sql, which the register's asset store serves, and its list reads)
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
