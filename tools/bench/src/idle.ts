import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { sampleCpu } from './cpu';
import {
  benchEnv,
  deleteBenchTopology,
  dropDatabase,
  runNode,
  stopAll,
  waitForHttp,
} from './processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const GATEWAY_PORT = 3220;

/** What each variant sets on top of the apps' defaults. */
const VARIANTS: Record<string, Record<string, string>> = {
  // The outbox relays as they were before they listened: a poll every 100 ms.
  poll: { OUTBOX_LISTEN: 'off', OUTBOX_POLL_MS: '100' },
  // The defaults: woken at commit, a 1 s poll as the safety net.
  listen: {},
};

interface Idle {
  variant: string;
  /** app → CPU ms a second. */
  cpu: Record<string, number>;
  /** Transactions a second in the stack's database, all apps together. */
  transactions: number;
}

/**
 * `npm run bench -- idle`: what the stack costs while nobody asks anything of it, the timers
 * and pollers alone. Each variant (`BENCH_VARIANTS`, default `poll,listen`) starts the three
 * apps on a database of its own, waits `BENCH_WARMUP_SECONDS`, then reads each app's CPU and
 * the database's transaction count over `BENCH_SECONDS`.
 */
export async function benchIdle(): Promise<void> {
  const names = (process.env.BENCH_VARIANTS ?? 'poll,listen').split(',');
  const results: Idle[] = [];
  for (const name of names) {
    const variant = VARIANTS[name];
    if (!variant) throw new Error(`no variant ${name} (${Object.keys(VARIANTS).join(', ')})`);
    results.push(await measure(name, variant));
  }
  console.log(
    `\nIdle stack, ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up: CPU ms a second, and Postgres transactions a second\n`,
  );
  console.log('| variant | gateway | register | webhook-worker | Postgres transactions/s |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const { variant, cpu, transactions } of results) {
    const ms = (app: string) => (cpu[app] ?? 0).toFixed(1);
    console.log(
      `| ${variant} | ${ms('gateway')} | ${ms('register')} | ${ms('webhook-worker')} | ${transactions.toFixed(1)} |`,
    );
  }
}

async function measure(variant: string, settings: Record<string, string>): Promise<Idle> {
  const run = randomBytes(3).toString('hex');
  const env = {
    ...benchEnv(run),
    EVENTS_EXCHANGE: `custodian.events.bench.${run}`,
    EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.bench.${run}`,
    EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.bench.${run}`,
    ...settings,
  };
  const database = `custodian_bench_${run}`;
  const children: Record<string, ChildProcess> = {};
  const db = new Client({ connectionString: env.DATABASE_URL });
  try {
    for (const app of ['gateway', 'register', 'webhook-worker']) {
      const migration = runNode(`apps/${app}/src/migrate.js`, env);
      await new Promise((resolve) => migration.once('exit', resolve));
    }
    children.register = runNode('apps/register/src/main.js', { ...env, HEALTH_PORT: '3221' });
    children.gateway = runNode('apps/gateway/src/main.js', {
      ...env,
      PORT: String(GATEWAY_PORT),
      HEALTH_PORT: String(GATEWAY_PORT + 3),
    });
    children['webhook-worker'] = runNode('apps/webhook-worker/src/main.js', {
      ...env,
      HEALTH_PORT: '3222',
    });
    await waitForHttp(`http://127.0.0.1:${GATEWAY_PORT + 3}/health`);
    await waitForHttp('http://127.0.0.1:3221/health');
    await waitForHttp('http://127.0.0.1:3222/health');
    await db.connect();
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));

    const pids: Record<string, number> = {};
    for (const [app, child] of Object.entries(children)) {
      if (child.pid === undefined) throw new Error(`${app} did not start`);
      pids[app] = child.pid;
    }
    const before = await transactions(db, database);
    const sampling = sampleCpu(pids);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const spent = sampling.stop();
    const seconds = (performance.now() - started) / 1000;
    // Give or take the two statements of a reading itself.
    const counted = (await transactions(db, database)) - before;
    const cpu: Record<string, number> = {};
    for (const [app, ms] of Object.entries(spent)) cpu[app] = ms / seconds;
    console.log(
      `${variant}: ${JSON.stringify(Object.fromEntries(Object.entries(cpu).map(([app, ms]) => [app, Number(ms.toFixed(1))])))} CPU ms/s, ${(counted / seconds).toFixed(1)} transactions/s`,
    );
    return { variant, cpu, transactions: counted / seconds };
  } finally {
    await db.end().catch(() => undefined);
    await stopAll(Object.values(children));
    await dropDatabase(database);
    await deleteBenchTopology(env);
  }
}

/** Committed and rolled-back transactions in `database` so far (the statistics collector's). */
async function transactions(db: Client, database: string): Promise<number> {
  // The counters are read from a snapshot taken once per transaction: clear it first.
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query<{ n: string }>(
    `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}
