import {
  GatewayAdminPatterns,
  type CreatedKeyView,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { load, type LoadResult } from './load';
import {
  POSTGRES,
  RABBITMQ_URL,
  REDIS_URL,
  benchEnv,
  runNode,
  stopAll,
  waitForHttp,
} from './processes';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** High enough that the limiter never refuses: the bench measures what limiting costs. */
const RATE_PER_MINUTE = 10_000_000;

interface Measured {
  result: LoadResult;
  /** Commands sent by the gateway per request: its Redis round trips. */
  roundTrips: number;
  /** Commands run per request including those inside Lua scripts. */
  commands: number;
}

/**
 * `npm run bench -- limits`: GET /ping through the gateway with its own limiter (one Lua
 * script per request), with Redis round trips and commands per request. (The comparison
 * with @nestjs/throttler, which needed the gateway's internals, is retired: ADR 0006.)
 */
export async function benchLimits(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const database = `custodian_bench_${run}`;
  const env = { ...benchEnv(run), USAGE_FLUSH_INTERVAL_MS: '2000' };
  const rows: Array<[string, Measured]> = [];
  try {
    const migration = runNode('apps/gateway/src/migrate.js', env);
    await new Promise((resolve) => migration.once('exit', resolve));
    const gateway = runNode('apps/gateway/src/main.js', {
      ...env,
      PORT: '3300',
      HEALTH_PORT: '3303',
    });
    try {
      await waitForHttp('http://127.0.0.1:3300/health');
      const key = await createKey(env.ADMIN_QUEUE);
      rows.push(['gateway, built-in limiter (Lua)', await measure(key.key)]);
    } finally {
      await stopAll([gateway]);
    }
    printTable(rows);
  } finally {
    const client = new Client({ connectionString: `${POSTGRES}/postgres` });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  }
}

async function measure(key: string): Promise<Measured> {
  const common = {
    name: 'GET /ping',
    url: 'http://127.0.0.1:3300',
    paths: ['/api/v1/ping'],
    headers: { 'x-api-key': key },
    connections: CONNECTIONS,
  };
  await load({ ...common, durationSeconds: 2 });
  const result = await load({ ...common, durationSeconds: DURATION });
  return { result, ...(await countCommands(key)) };
}

/**
 * Watches Redis with MONITOR while 200 requests are sent one by one (the bench runs alone):
 * MONITOR tells commands a client sent from those a Lua script ran.
 */
async function countCommands(key: string): Promise<{ roundTrips: number; commands: number }> {
  const requests = 200;
  const monitor = await new Redis(REDIS_URL).monitor();
  let fromClients = 0;
  let fromScripts = 0;
  monitor.on('monitor', (_time: string, _args: string[], source: string) => {
    if (source === 'lua') fromScripts++;
    else fromClients++;
  });
  for (let i = 0; i < requests; i++) {
    await fetch('http://127.0.0.1:3300/api/v1/ping', { headers: { 'x-api-key': key } });
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  monitor.disconnect();
  return {
    roundTrips: fromClients / requests,
    commands: (fromClients + fromScripts) / requests,
  };
}

async function createKey(queue: string): Promise<CreatedKeyView> {
  const admin = new RmqRpcClient({
    url: RABBITMQ_URL,
    queue,
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
    await admin.request(GatewayAdminPatterns.workspaceLimits, {
      workspace: workspace.id,
      rate_per_minute: String(RATE_PER_MINUTE),
      monthly_quota: 'unlimited',
    });
    return await admin.request<CreatedKeyView>(GatewayAdminPatterns.keyCreate, {
      workspace: workspace.id,
      scope: 'read',
    });
  } finally {
    await admin.close();
  }
}

function printTable(rows: Array<[string, Measured]>): void {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(`\nGET /ping, ${CONNECTIONS} connections, ${DURATION} s per run\n`);
  const header = ['variant', 'req/s', 'p50 ms', 'p99 ms', 'Redis round trips / request'];
  console.log(line([...header, 'Redis commands / request (incl. Lua)', 'errors']));
  console.log(line(new Array<string>(7).fill('---')));
  for (const [name, { result, roundTrips, commands }] of rows) {
    console.log(
      line([
        name,
        result.requestsPerSecond.toFixed(0),
        String(result.p50),
        String(result.p99),
        roundTrips.toFixed(2),
        commands.toFixed(2),
        String(result.errors + result.non2xx),
      ]),
    );
  }
}
