import {
  GatewayAdminPatterns,
  type CreatedKeyView,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { load, type LoadResult } from './load';
import { paced } from './paced';
import {
  POSTGRES,
  RABBITMQ_URL,
  benchEnv,
  runNode,
  stopAll,
  waitForHttp,
  type BenchEnv,
} from './processes';
import { benchRpc } from './rpc';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const FULL = 'http://127.0.0.1:3200';

/**
 * `npm run bench -- reads`: the full path (gateway → RabbitMQ → register → Postgres) against
 * a bare Fastify + pg handler serving the same SQL, on 100,000 assets in one workspace; then
 * the RPC transport alone (`npm run bench -- rpc`).
 */
export async function benchReads(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const database = `custodian_bench_${run}`;
  const env = benchEnv(run);
  const children = [];
  try {
    for (const app of ['gateway', 'register', 'webhook-worker']) {
      const migration = runNode(`apps/${app}/src/migrate.js`, env);
      await new Promise((resolve) => migration.once('exit', resolve));
    }
    children.push(runNode('apps/register/src/main.js', { ...env, HEALTH_PORT: '3201' }));
    children.push(runNode('apps/gateway/src/main.js', { ...env, PORT: '3200' }));
    await waitForHttp('http://127.0.0.1:3200/health');
    await waitForHttp('http://127.0.0.1:3201/health');

    const { workspace, key } = await createTenant(env);
    const seeded = await seed(env.DATABASE_URL, workspace.id);
    console.log(`seeded ${ASSETS} assets in ${seeded.ms} ms`);

    children.push(
      runNode('tools/bench/src/bare-server.js', {
        ...env,
        PORT: '3202',
        BENCH_WORKSPACE_ID: workspace.id,
      }),
    );
    await waitForHttp('http://127.0.0.1:3202/assets?page=1');

    const auth = { authorization: `Bearer ${key.key}` };
    const idPaths = seeded.ids.map((id) => `/assets/${id}`);
    const searchPaths = ['sn-0042', 'model 7', 'brand-3', 'at-0123', 'sku-99'].map(
      (term) => `/assets?page=1&pageSize=50&search=${encodeURIComponent(term)}`,
    );
    const rows: Array<[LoadResult, LoadResult]> = [];
    const routes: Array<[string, string[]]> = [
      ['GET /assets/{id}', idPaths],
      ['GET /assets?page=1&pageSize=50', ['/assets?page=1&pageSize=50']],
      ['GET /assets?page=1&search=...', searchPaths],
    ];
    const steady: LoadResult[] = [];
    for (const [name, paths] of routes) {
      const common = { paths: [...paths], connections: CONNECTIONS, durationSeconds: DURATION };
      const api = { ...common, paths: paths.map((p) => `/api/v1${p}`) };
      await load({ ...api, name, url: FULL, headers: auth, durationSeconds: 2 });
      const full = await load({ ...api, name, url: FULL, headers: auth });
      await load({ ...common, name, url: 'http://127.0.0.1:3202', durationSeconds: 2 });
      const bare = await load({ ...common, name, url: 'http://127.0.0.1:3202' });
      rows.push([full, bare]);
      // Latency at a steady half of this route's peak rate (open loop, so queueing counts).
      const rate = Math.max(1, Math.round(full.requestsPerSecond / 2));
      steady.push(
        await paced({
          ...api,
          name: `${name} at ${rate} req/s`,
          url: FULL,
          headers: auth,
          ratePerSecond: rate,
        }),
      );
    }
    printTable(rows, steady);
  } finally {
    await stopAll(children);
    await dropDatabase(database);
  }
  await benchRpc();
}

async function createTenant(env: BenchEnv) {
  const admin = new RmqRpcClient({
    url: RABBITMQ_URL,
    queue: env.ADMIN_QUEUE,
    timeoutMs: 10_000,
    connectionName: 'custodian-bench',
    serviceName: 'gateway',
  });
  await admin.connect();
  try {
    const workspace = await admin.request<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Bench',
      plan: 'enterprise',
    });
    // The bench measures serving, not limiting: lift the enterprise plan's 3,000 a minute.
    await admin.request(GatewayAdminPatterns.workspaceLimits, {
      workspace: workspace.id,
      rate_per_minute: '100000000',
      monthly_quota: 'unlimited',
    });
    const key = await admin.request<CreatedKeyView>(GatewayAdminPatterns.keyCreate, {
      workspace: workspace.id,
      scope: 'read',
    });
    return { workspace, key };
  } finally {
    await admin.close();
  }
}

/** Bulk-inserts assets with SQL: the bench measures reads, not 100,000 API writes. */
async function seed(databaseUrl: string, workspaceId: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const started = Date.now();
  try {
    await client.query(
      `INSERT INTO register.categories (id, workspace_id, name)
       SELECT 'cat_bench' || g, $1, 'Category ' || g FROM generate_series(1, 20) g`,
      [workspaceId],
    );
    await client.query(
      `INSERT INTO register.assets (id, workspace_id, name, sku, status, brand, model,
         serial_number, asset_tag, category_id, created_at, updated_at)
       SELECT 'ast_bench' || lpad(g::text, 7, '0'), $1, 'Asset ' || g, 'SKU-' || g,
         (ARRAY['active','maintenance','retired','lost','stolen','inactive'])[1 + g % 6],
         'Brand-' || (g % 50), 'Model ' || (g % 500), 'SN-' || lpad(g::text, 8, '0'),
         'AT-' || lpad(g::text, 6, '0'), 'cat_bench' || (1 + g % 20),
         now() - make_interval(secs => ($2::int - g)), now()
       FROM generate_series(1, $2::int) g`,
      [workspaceId, ASSETS],
    );
    await client.query(
      `INSERT INTO register.workspace_counters (workspace_id, asset_tag_seq, asset_count)
       VALUES ($1, $2::bigint, $2::int)`,
      [workspaceId, ASSETS],
    );
    // Settle the table now, or autovacuum and a checkpoint would land in the middle of a run.
    await client.query('VACUUM ANALYZE register.assets');
    await client.query('CHECKPOINT');
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM register.assets WHERE workspace_id = $1 ORDER BY random() LIMIT 1000`,
      [workspaceId],
    );
    return { ms: Date.now() - started, ids: rows.map((row) => row.id) };
  } finally {
    await client.end();
  }
}

async function dropDatabase(database: string): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
}

function printTable(rows: Array<[LoadResult, LoadResult]>, steady: LoadResult[]): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s per run, ${ASSETS} assets\n`);
  const header = ['route', 'full req/s', 'full p50 ms', 'full p97.5 ms', 'full p99 ms'];
  console.log(line([...header, 'bare req/s', 'bare p50 ms', 'bare p99 ms', 'full/bare', 'errors']));
  console.log(line(new Array<string>(10).fill('---')));
  for (const [full, bare] of rows) {
    console.log(
      line([
        full.name,
        full.requestsPerSecond.toFixed(0),
        String(full.p50),
        String(full.p97_5),
        String(full.p99),
        bare.requestsPerSecond.toFixed(0),
        String(bare.p50),
        String(bare.p99),
        `${((100 * full.requestsPerSecond) / bare.requestsPerSecond).toFixed(0)}%`,
        String(full.errors + full.non2xx + bare.errors + bare.non2xx),
      ]),
    );
  }
  console.log('\nFull path at a steady half of its peak rate:\n');
  console.log(line(['route', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors']));
  console.log(line(new Array<string>(6).fill('---')));
  for (const run of steady) {
    console.log(
      line([
        run.name,
        run.requestsPerSecond.toFixed(0),
        String(run.p50),
        String(run.p95),
        String(run.p99),
        String(run.errors + run.non2xx),
      ]),
    );
  }
}
