import {
  DETAIL_COLUMNS,
  DETAIL_FROM,
  SUMMARY_COLUMNS,
  SUMMARY_FROM,
  likePattern,
} from '@custodian/register-sql';
import Fastify from 'fastify';
import { Pool } from 'pg';

/**
 * The lower bound the full path is measured against: the same SQL (the register's, from
 * @custodian/register-sql) behind a bare Fastify handler, no auth, no broker, no framework.
 * Run as its own process by the bench.
 */
async function main(): Promise<void> {
  const workspaceId = process.env.BENCH_WORKSPACE_ID;
  if (!workspaceId) throw new Error('BENCH_WORKSPACE_ID is not set');
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = Fastify({ logger: false });

  app.get<{ Params: { id: string } }>('/assets/:id', async (request, reply) => {
    const { rows } = await pool.query(
      `SELECT ${DETAIL_COLUMNS} FROM ${DETAIL_FROM} WHERE a.id = $1 AND a.workspace_id = $2`,
      [request.params.id, workspaceId],
    );
    if (!rows[0]) return reply.status(404).send({ statusCode: 404 });
    return rows[0] as object;
  });

  app.get<{ Querystring: { page?: string; pageSize?: string; search?: string } }>(
    '/assets',
    async (request) => {
      const pageSize = Number(request.query.pageSize ?? 50);
      const offset = (Number(request.query.page ?? 1) - 1) * pageSize;
      const params: unknown[] = [workspaceId];
      let filter = 'a.workspace_id = $1';
      if (request.query.search) {
        params.push(likePattern(request.query.search));
        filter += ' AND a.search_text LIKE lower($2)';
      }
      const [page, count] = await Promise.all([
        pool.query(
          `SELECT ${SUMMARY_COLUMNS} FROM ${SUMMARY_FROM}
           WHERE ${filter} ORDER BY a.created_at, a.id LIMIT ${pageSize} OFFSET ${offset}`,
          params,
        ),
        // The register's own counting: the workspace counter when unfiltered, else count(*).
        params.length === 1
          ? pool.query(
              `SELECT asset_count AS total FROM register.workspace_counters WHERE workspace_id = $1`,
              params,
            )
          : pool.query(
              `SELECT count(*)::int AS total FROM register.assets a WHERE ${filter}`,
              params,
            ),
      ]);
      return {
        data: page.rows,
        page: 1,
        pageSize,
        total: (count.rows[0] as { total: number }).total,
      };
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

void main();
