import {
  GatewayAdminPatterns,
  WorkerAdminPatterns,
  type CreatedKeyView,
  type CreatedWebhookView,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient, deleteStackTopology } from '@custodian/messaging';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  rmdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { Client, Pool } from 'pg';
import { APP_NAMES, AppStack, REPO_ROOT } from './apps';
import type { Cleanup } from './cleanup';
import { freePort } from './commands';
import { RoundRobinProxy } from './proxy';
import { OwnPostgres, OwnRabbitMq, OwnRedis, systemServices, type Services } from './services';

/** Everything a fault window works with. */
export interface Harness {
  run: string;
  services: Services;
  stack: AppStack;
  /** The apps' env (every replica's). */
  env: Record<string, string>;
  db: Pool;
  workspaceId: string;
  apiKey: string;
  logDir: string;
  /** Replicas of each app from the start (1, or 2 for `--replicas 2`). */
  replicas: number;
  /** With replicas: the balancer in front of the gateways, which the client talks to. */
  proxy: RoundRobinProxy | null;
  /** The URLs the write client sends to: the proxy's, or the gateways' own. */
  apiUrls: () => string[];
}

export interface HarnessOptions {
  run: string;
  /** Own Postgres, Redis and RabbitMQ in a temp dir (the faults that stop them need them). */
  ownServices: boolean;
  /** Settings over the apps' defaults (the short run's shorter delivery lease). */
  appEnv: Record<string, string>;
  /** The receiver's URL, subscribed to every event. */
  webhookUrl: string;
  /** Replicas of each app to start; with more than one, the gateways go behind a proxy. */
  replicas: number;
}

/**
 * The register's due-date engine in the harness: a run every 250 ms rather than 5 s, so that a
 * check-out's `assignment.overdue` comes within a window's few seconds of load.
 */
const DUE_DATES_SWEEP_MS = '250';

/**
 * Starts the servers (the run's own, or the machine's for the short run), a fresh database
 * migrated by each app, the three apps from dist/, and a workspace with a write key and an
 * endpoint subscribed to `*`. Every step registers how to undo it with `cleanup` first.
 */
export async function startHarness(
  options: HarnessOptions,
  cleanup: Cleanup,
): Promise<Harness & { webhookSecret: string }> {
  const { run } = options;
  const tempDir = mkdtempSync(path.join(tmpdir(), `custodian-faults-${run}-`));
  // The postgres and rabbitmq accounts own their directories inside.
  chmodSync(tempDir, 0o755);
  cleanup.add('temp dir', () => Promise.resolve(rmSync(tempDir, { recursive: true, force: true })));
  const logDir = path.join(tmpdir(), `custodian-faults-${run}-logs`);
  mkdirSync(logDir, { recursive: true });
  // Runs last: a run that failed before any app wrote a line leaves no empty directory.
  cleanup.add('empty log dir', () => {
    if (existsSync(logDir) && readdirSync(logDir).length === 0) rmdirSync(logDir);
    return Promise.resolve();
  });

  let services = systemServices();
  if (options.ownServices) {
    const started = Date.now();
    const [postgres, redis, rabbitmq] = await Promise.all([
      OwnPostgres.create(tempDir),
      OwnRedis.create(tempDir),
      OwnRabbitMq.create(tempDir),
    ]);
    cleanup.add('own RabbitMQ', () => rabbitmq.dispose());
    cleanup.add('own Redis', () => redis.dispose());
    cleanup.add('own Postgres', () => postgres.dispose());
    await Promise.all([postgres.start(), redis.start(), rabbitmq.start()]);
    console.log(
      `own servers up in ${((Date.now() - started) / 1000).toFixed(1)} s: Postgres :${postgres.port}, ` +
        `Redis :${redis.port}, RabbitMQ ${rabbitmq.node} :${rabbitmq.port}`,
    );
    services = {
      postgresServer: postgres.serverUrl,
      redisUrl: redis.url,
      rabbitmqUrl: rabbitmq.url,
      own: { postgres, redis, rabbitmq },
    };
  }

  const database = `custodian_faults_${run}`;
  await adminSql(services.postgresServer, `CREATE DATABASE ${database}`);
  cleanup.add('database', () =>
    adminSql(services.postgresServer, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
  );
  const env: Record<string, string> = {
    DATABASE_URL: `${services.postgresServer}/${database}`,
    RABBITMQ_URL: services.rabbitmqUrl,
    REDIS_URL: services.redisUrl,
    REDIS_PREFIX: `faults:${run}:`,
    REGISTER_QUEUE: `custodian.register.rpc.faults.${run}`,
    REGISTER_ADMIN_QUEUE: `custodian.register.admin.faults.${run}`,
    ADMIN_QUEUE: `custodian.gateway.admin.faults.${run}`,
    WORKER_ADMIN_QUEUE: `custodian.webhook-worker.admin.faults.${run}`,
    EVENTS_EXCHANGE: `custodian.events.faults.${run}`,
    EVENTS_QUEUE: `custodian.webhook-worker.events.faults.${run}`,
    EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.faults.${run}`,
    EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.faults.${run}`,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // The development key and relaxed defaults, as npm start has them.
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
    LOG_FORMAT: 'json',
    DUE_DATES_SWEEP_MS,
    ...options.appEnv,
  };
  if (!options.ownServices) {
    // On the machine's servers: take the run's queues, exchanges and keys away again.
    cleanup.add('queues and Redis keys', async () => {
      await deleteQueues(env);
      await deleteRedisKeys(env.REDIS_URL ?? '', env.REDIS_PREFIX ?? '');
    });
  }

  for (const app of APP_NAMES) await migrate(app, env);
  const stack = new AppStack(env, logDir);
  cleanup.add('apps', () => stack.stopAll());
  // Replica by replica (each app's first before any second): replica numbers follow.
  for (let replica = 1; replica <= options.replicas; replica++) {
    await Promise.all([
      stack.add('gateway', await freePort()),
      stack.add('register'),
      stack.add('webhook-worker'),
    ]);
  }
  let proxy: RoundRobinProxy | null = null;
  if (options.replicas > 1) {
    proxy = new RoundRobinProxy(() =>
      stack.replicas('gateway').map((gateway) => ({ label: gateway.label, port: gateway.port })),
    );
    await proxy.listen();
    const started = proxy;
    cleanup.add('gateway proxy', () => started.close());
  }
  const proxyApi = proxy ? `${proxy.url}/api/v1` : null;
  const apiUrls = () => (proxyApi ? [proxyApi] : stack.gatewayUrls());

  const db = new Pool({ connectionString: env.DATABASE_URL, max: 4 });
  // An idle connection the Postgres faults cut must not crash the tool.
  db.on('error', () => undefined);
  cleanup.add('pool', () => db.end());

  const tenant = await createTenant(env, options.webhookUrl);
  return {
    run,
    services,
    stack,
    env,
    db,
    logDir,
    replicas: options.replicas,
    proxy,
    apiUrls,
    ...tenant,
  };
}

/** The app's own migrations, as its image runs them at start (dist/apps/<app>/src/migrate.js). */
function migrate(app: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(REPO_ROOT, 'tools/runtime/register-paths.js'),
        path.join(REPO_ROOT, 'dist/apps', app, 'src/migrate.js'),
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${app} migrations exited ${code}: ${output}`)),
    );
  });
}

async function adminSql(server: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A workspace made through the gateway's admin queue (enterprise: webhooks; its per-minute
 * limit lifted and a finite quota, so that every answer carries X-Quota-Used), a write key,
 * and an endpoint for `*` on the receiver.
 */
async function createTenant(
  env: Record<string, string>,
  webhookUrl: string,
): Promise<{ workspaceId: string; apiKey: string; webhookSecret: string }> {
  const client = (queue: string, serviceName: string) =>
    new RmqRpcClient({
      url: env.RABBITMQ_URL ?? '',
      queue,
      timeoutMs: 10_000,
      connectionName: 'custodian-faults',
      serviceName,
    });
  const gateway = client(env.ADMIN_QUEUE ?? '', 'gateway');
  const worker = client(env.WORKER_ADMIN_QUEUE ?? '', 'webhook-worker');
  await gateway.connect();
  await worker.connect();
  try {
    const workspace = await gateway.request<WorkspaceView>(GatewayAdminPatterns.workspaceCreate, {
      name: 'Fault ledger',
      plan: 'enterprise',
    });
    await gateway.request(GatewayAdminPatterns.workspaceLimits, {
      workspace: workspace.id,
      rate_per_minute: '100000000',
      monthly_quota: '100000000000',
    });
    const key = await gateway.request<CreatedKeyView>(GatewayAdminPatterns.keyCreate, {
      workspace: workspace.id,
      scope: 'write',
    });
    const endpoint = await worker.request<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: workspace.id,
      url: webhookUrl,
      events: '*',
    });
    return { workspaceId: workspace.id, apiKey: key.key, webhookSecret: endpoint.secret };
  } finally {
    await gateway.close();
    await worker.close();
  }
}

async function deleteQueues(env: Record<string, string>): Promise<void> {
  await deleteStackTopology(env.RABBITMQ_URL ?? '', 'custodian-faults-cleanup', env);
}

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
