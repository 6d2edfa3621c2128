import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { sampleCpu } from './cpu';
import { benchStackEnv, deleteBenchTopology, dropDatabase, startApps, stopAll } from './processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** The gateway's API; the health ports follow it (startApps). */
const PORT = 3220;

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
  const env = { ...benchStackEnv(run), ...settings };
  const database = `custodian_bench_${run}`;
  let children: ChildProcess[] = [];
  const db = new Client({ connectionString: env.DATABASE_URL });
  try {
    const stack = await startApps(env, PORT);
    children = stack.children;
    await db.connect();
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));

    const before = await transactions(db, database);
    const sampling = sampleCpu(stack.pids);
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
    await stopAll(children);
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
