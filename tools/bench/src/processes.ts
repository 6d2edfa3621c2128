import { deleteStackTopology } from '@custodian/messaging';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** The flags the apps run with in production too (tools/scripts/start.sh, Dockerfiles). */
export const NODE_FLAGS = ['--max-semi-space-size=32'];

export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/**
 * Runs a compiled entry point as its own process, as production would: of this repo, or of
 * another checkout's build (`root`, with its own node_modules), to compare two versions.
 */
export function runNode(
  entry: string,
  env: Record<string, string>,
  root: string = REPO_ROOT,
): ChildProcess {
  const args = [
    // BENCH_CPU_PROF=<dir>: each app writes a V8 CPU profile there when it exits.
    ...(process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : []),
    ...NODE_FLAGS,
    '-r',
    path.join(root, 'tools/runtime/register-paths.js'),
    path.join(root, 'dist', entry),
  ];
  // BENCH_APP_NODE_OPTIONS: Node's options for the apps alone (a heap bound, as a container's
  // memory limit sets one), not for the bench or its build.
  const appOptions = process.env.BENCH_APP_NODE_OPTIONS;
  const options = {
    cwd: root,
    env: { ...process.env, ...env, ...(appOptions ? { NODE_OPTIONS: appOptions } : {}) },
    stdio: ['ignore', 'inherit', 'inherit'] as ['ignore', 'inherit', 'inherit'],
  };
  // BENCH_APP_CPUS=<list>: the apps run on these cores only (taskset), so with the load
  // generator and the services kept on the others, a saturated run measures the apps' own
  // work instead of how they fare against everything else for the same cores.
  // BENCH_GATEWAY_CPUS=<list> puts the gateway elsewhere, e.g. on a core of its own, to see
  // its cost without the other apps beside it.
  const cpus =
    (entry.startsWith('apps/gateway/') && process.env.BENCH_GATEWAY_CPUS) ||
    process.env.BENCH_APP_CPUS;
  return cpus
    ? spawn('taskset', ['-c', cpus, process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}

export type AppName = 'gateway' | 'register' | 'webhook-worker';

/**
 * Migrates and starts the three apps of a bench's stack: the gateway's API on `port`, the
 * health ports of the register, the worker and the gateway on port + 1, + 2 and + 3. Resolves
 * once each answers; if one does not, the others are stopped before the error is thrown.
 */
export async function startApps(
  env: Record<string, string>,
  port: number,
  root: string = REPO_ROOT,
): Promise<{ children: ChildProcess[]; pids: Record<AppName, number> }> {
  for (const app of ['gateway', 'register', 'webhook-worker']) {
    const migration = runNode(`apps/${app}/src/migrate.js`, env, root);
    await new Promise((resolve) => migration.once('exit', resolve));
  }
  const started: Record<AppName, ChildProcess> = {
    register: runNode('apps/register/src/main.js', { ...env, HEALTH_PORT: String(port + 1) }, root),
    gateway: runNode(
      'apps/gateway/src/main.js',
      { ...env, PORT: String(port), HEALTH_PORT: String(port + 3) },
      root,
    ),
    'webhook-worker': runNode(
      'apps/webhook-worker/src/main.js',
      { ...env, HEALTH_PORT: String(port + 2) },
      root,
    ),
  };
  const children = Object.values(started);
  try {
    for (const health of [port, port + 1, port + 2]) {
      await waitForHttp(`http://127.0.0.1:${health}/health`);
    }
  } catch (error) {
    await stopAll(children);
    throw error;
  }
  return {
    children,
    pids: {
      gateway: started.gateway.pid ?? 0,
      register: started.register.pid ?? 0,
      'webhook-worker': started['webhook-worker'].pid ?? 0,
    },
  };
}

export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    ),
  );
}

export const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The settings every bench reads back from its apps' environment. */
export interface BenchEnv extends Record<string, string> {
  DATABASE_URL: string;
  REGISTER_QUEUE: string;
  REGISTER_ADMIN_QUEUE: string;
  ADMIN_QUEUE: string;
  EVENTS_QUEUE: string;
  WORKER_ADMIN_QUEUE: string;
}

/**
 * The environment of one bench run's apps: its own database, queues and Redis prefix, so a
 * run never touches a stack that `npm start` or the tests are running.
 */
export function benchEnv(run: string): BenchEnv {
  return {
    DATABASE_URL: `${POSTGRES}/custodian_bench_${run}`,
    RABBITMQ_URL,
    REDIS_URL,
    REDIS_PREFIX: `bench:${run}:`,
    REGISTER_QUEUE: `custodian.register.rpc.bench.${run}`,
    REGISTER_ADMIN_QUEUE: `custodian.register.admin.bench.${run}`,
    ADMIN_QUEUE: `custodian.gateway.admin.bench.${run}`,
    EVENTS_QUEUE: `custodian.webhook-worker.events.bench.${run}`,
    WORKER_ADMIN_QUEUE: `custodian.webhook-worker.admin.bench.${run}`,
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    // Local receivers and the development key, as npm start has them (the defaults elsewhere
    // are the secure ones).
    NODE_ENV: 'development',
  };
}

/** benchEnv with events exchanges of its own: for a bench that runs all three apps. */
export function benchStackEnv(run: string): BenchEnv {
  return {
    ...benchEnv(run),
    EVENTS_EXCHANGE: `custodian.events.bench.${run}`,
    EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.bench.${run}`,
    EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.bench.${run}`,
  };
}

/** Drops a database a bench made (its connections closed by force). */
export async function dropDatabase(database: string): Promise<void> {
  const client = new Client({ connectionString: `${POSTGRES}/postgres` });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await client.end();
}

/** Deletes the queues and exchanges a bench's stack declared under its run's names. */
export async function deleteBenchTopology(env: BenchEnv): Promise<void> {
  await deleteStackTopology(RABBITMQ_URL, 'custodian-bench-cleanup', env);
}
