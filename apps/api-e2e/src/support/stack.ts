import {
  DomainError,
  GatewayAdminPatterns,
  type CreatedKeyView,
  type KeyScope,
  type PlanName,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient, deleteStackTopology } from '@custodian/messaging';
import {
  AppProcess,
  POSTGRES_PROBE,
  freePort,
  httpRequest,
  postgresCounts,
  runNodeEntry,
  uniqueSuffix,
  type ApiResponse,
  type Completed,
  type PostgresCounts,
  type RequestOptions,
  type TestDatabase,
} from '@custodian/testing';
import { mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool, type QueryResultRow } from 'pg';
import { migratedDatabase } from './migrated-database';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The compiled apps (`npm run build`), each started as its own process, as in production. */
const APPS = {
  gateway: { main: 'apps/gateway/src/main.js', port: 'PORT' },
  register: { main: 'apps/register/src/main.js', port: 'HEALTH_PORT' },
  worker: { main: 'apps/webhook-worker/src/main.js', port: 'HEALTH_PORT' },
} as const;
export type AppName = keyof typeof APPS;

const ADMIN_CLI = 'tools/admin/src/main.js';

/** A port taken between choosing it and the app binding it: start the app again elsewhere. */
const PORT_ATTEMPTS = 3;

/**
 * Each stack's apps append their output to `<tmp>/custodian-e2e/<test file>-<suffix>/<app>.log`.
 * With the default LOG_LEVEL (silent) only what an app prints on failing is there; set
 * E2E_LOG_LEVEL=info to see everything. Empty logs are removed when the stack stops.
 */
const LOG_ROOT = path.join(tmpdir(), 'custodian-e2e');

export interface StackOptions {
  /** Gateway's timeout on register calls; tests of a slow register set it low. */
  registerTimeoutMs?: number;
  /**
   * Env merged over the defaults, for every app (e.g. REDIS_URL of a dedicated server).
   * `stack.env` may also be changed before `start()`, e.g. SMTP_URL of a server the test
   * started on a free port, or a fixed PORT for the gateway.
   */
  env?: Record<string, string>;
  /**
   * Whether to start a webhook-worker with the stack (default true). Crash tests set it
   * false and start (and kill) workers of their own with `startExtraWorker`.
   */
  worker?: boolean;
  /** Counts the gateway's Postgres queries, for `gatewayPostgresCounts` (see postgres-probe). */
  probeGatewayPostgres?: boolean;
  /**
   * The broker as compose and Kubernetes give it: each app's RABBITMQ_URL (its own user) and
   * the admin CLI's, which the stack's admin clients and `cli()` use. Its vhost is the
   * caller's: stop() leaves the queues to it.
   */
  broker?: { apps: Record<AppName, string>; adminCli: string };
}

/**
 * The three real apps, each its own process built from dist/, on a fresh database and their
 * own queues and Redis prefix: end-to-end tests speak HTTP to the gateway, which reaches the
 * register over the real RabbitMQ.
 */
export class TestStack {
  private gateway: AppProcess | null = null;
  /** Null while stopped by `stopRegister`. */
  register: AppProcess | null = null;
  baseUrl = '';
  readonly suffix = uniqueSuffix();
  readonly logDir: string;
  private database: TestDatabase | null = null;
  private pool: Pool | null = null;
  private admin: RmqRpcClient | null = null;
  private registerAdmin: RmqRpcClient | null = null;
  private workerAdmin: RmqRpcClient | null = null;
  /** The health port (/health, /health/live, /metrics) of the first process of each app. */
  readonly healthPorts: Partial<Record<AppName, number>> = {};
  /** Every process started, running or not: `stop()` ends those still running. */
  private readonly processes: AppProcess[] = [];

  readonly env: Record<string, string>;
  private readonly runWorker: boolean;
  private readonly probeGatewayPostgres: boolean;
  private readonly broker: StackOptions['broker'];

  constructor(options: StackOptions = {}) {
    this.runWorker = options.worker ?? true;
    this.probeGatewayPostgres = options.probeGatewayPostgres ?? false;
    this.broker = options.broker;
    const testFile = path.basename(expect.getState().testPath ?? 'stack', '.ts');
    this.logDir = path.join(LOG_ROOT, `${testFile}-${this.suffix}`);
    this.env = {
      RABBITMQ_URL,
      REDIS_URL,
      REDIS_PREFIX: `t:${this.suffix}:`,
      REGISTER_QUEUE: `custodian.register.rpc.t.${this.suffix}`,
      ADMIN_QUEUE: `custodian.gateway.admin.t.${this.suffix}`,
      REGISTER_ADMIN_QUEUE: `custodian.register.admin.t.${this.suffix}`,
      EVENTS_QUEUE: `custodian.webhook-worker.events.t.${this.suffix}`,
      WORKER_ADMIN_QUEUE: `custodian.webhook-worker.admin.t.${this.suffix}`,
      EVENTS_DEAD_LETTER_EXCHANGE: `custodian.events.dead.t.${this.suffix}`,
      EVENTS_DEAD_LETTER_QUEUE: `custodian.events.dead.t.${this.suffix}`,
      EVENTS_EXCHANGE: `custodian.events.t.${this.suffix}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'silent',
      REGISTER_TIMEOUT_MS: String(options.registerTimeoutMs ?? 4_000),
      // A test file's stack shares two cores with other test files (and a browser): a Redis
      // answer can wait past the gateway's 100 ms fail-fast in its own event loop, and a console
      // or limits request then answers 503 for the machine's load. That refusal is tested where
      // it is meant (redis-down.e2e-spec.ts, with Redis unreachable).
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      ...options.env,
    };
  }

  /**
   * A database with every app's migrations, then the three apps at once (as `npm start` does:
   * none needs another to start), then the admin queues' clients.
   */
  async start(): Promise<this> {
    mkdirSync(this.logDir, { recursive: true });
    this.database = await migratedDatabase();
    this.env.DATABASE_URL = this.database.url;
    await Promise.all([
      this.startGateway(),
      this.startRegister(),
      this.runWorker ? this.launch('worker') : undefined,
    ]);
    const client = (queue: string, serviceName: string) =>
      new RmqRpcClient({
        url: this.broker?.adminCli ?? RABBITMQ_URL,
        queue,
        timeoutMs: 5_000,
        connectionName: `custodian-test-${serviceName}-admin`,
        serviceName,
      });
    this.admin = client(this.env.ADMIN_QUEUE ?? '', 'gateway');
    this.registerAdmin = client(this.env.REGISTER_ADMIN_QUEUE ?? '', 'register');
    this.workerAdmin = client(this.env.WORKER_ADMIN_QUEUE ?? '', 'webhook-worker');
    await Promise.all([
      this.admin.connect(),
      this.registerAdmin.connect(),
      this.workerAdmin.connect(),
    ]);
    return this;
  }

  async startRegister(): Promise<void> {
    this.register = (await this.launch('register')).app;
  }

  /** SIGTERM: the register drains and exits, as in a rolling restart. */
  async stopRegister(): Promise<void> {
    await this.register?.stop();
    this.register = null;
  }

  /**
   * Another gateway on the same database, queues and Redis, with `env` over the stack's;
   * returns its API base URL.
   */
  async startExtraGateway(env: Record<string, string> = {}): Promise<string> {
    const { port } = await this.launch('gateway', { PORT: '0', ...env });
    return apiBaseUrl(port);
  }

  /**
   * Another replica of `name` on the stack's env with `env` over it, once it answers on its
   * port (whatever /health says); resolves with the process and that port.
   */
  async startExtra(
    name: AppName,
    env: Record<string, string> = {},
  ): Promise<{ app: AppProcess; port: number; healthPort: number }> {
    if (name !== 'gateway') {
      const started = await this.launch(name, env);
      return { ...started, healthPort: started.port };
    }
    const healthPort = await freePort();
    const started = await this.launch(name, {
      PORT: '0',
      HEALTH_PORT: String(healthPort),
      ...env,
    });
    return { ...started, healthPort };
  }

  /**
   * Another webhook-worker on the stack's env with `env` over it, once it answers /health;
   * `stop('SIGKILL')` on it is a crash.
   */
  async startExtraWorker(env: Record<string, string> = {}): Promise<AppProcess> {
    return (await this.launch('worker', env)).app;
  }

  async stop(): Promise<void> {
    await Promise.all([
      this.admin?.close(),
      this.registerAdmin?.close(),
      this.workerAdmin?.close(),
    ]);
    await Promise.all(this.processes.map((app) => app.stop()));
    await this.pool?.end();
    if (this.database && !this.broker) await this.deleteQueues();
    await this.database?.drop();
    removeEmptyLogs(this.logDir);
  }

  get databaseUrl(): string {
    if (!this.database) throw new Error('the stack is not started');
    return this.database.url;
  }

  /**
   * What every process of the stack has written to stdout and stderr so far, by log file
   * (`gateway.log`, `register.log`, `worker.log`, `worker-2.log`, ...). The apps log at
   * LOG_LEVEL (silent unless the test's env or E2E_LOG_LEVEL says otherwise).
   */
  logs(): Record<string, string> {
    let files: string[];
    try {
      files = readdirSync(this.logDir).filter((file) => file.endsWith('.log'));
    } catch {
      return {};
    }
    return Object.fromEntries(
      files.sort().map((file) => [file, readFileSync(path.join(this.logDir, file), 'utf8')]),
    );
  }

  /** GET `path` on an app's health port (`/metrics`, `/health/live`), as Prometheus would. */
  opsRequest(app: AppName, path: string): Promise<Response> {
    const port = this.healthPorts[app];
    if (port === undefined) throw new Error(`${app} is not started`);
    return fetch(`http://127.0.0.1:${port}${path}`);
  }

  /** Reads (or writes) the stack's database directly, as a test's own check of what is stored. */
  async query<T extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    this.pool ??= new Pool({ connectionString: this.databaseUrl, max: 2 });
    return (await this.pool.query<T>(sql, params)).rows;
  }

  /** What the gateway process has asked of Postgres so far (needs `probeGatewayPostgres`). */
  gatewayPostgresCounts(): Promise<PostgresCounts> {
    if (!this.gateway || !this.probeGatewayPostgres) {
      throw new Error('start the stack with probeGatewayPostgres: true');
    }
    return postgresCounts(this.gateway);
  }

  /** A message to the gateway's admin queue, as the admin CLI sends it. */
  adminCall<T>(pattern: string, payload: object): Promise<T> {
    return connected(this.admin).request<T>(pattern, payload);
  }

  /** A message to the register's admin queue, as the admin CLI sends it. */
  registerAdminCall<T>(pattern: string, payload: object): Promise<T> {
    return connected(this.registerAdmin).request<T>(pattern, payload);
  }

  /** A message to the webhook-worker's admin queue, as the admin CLI sends it. */
  workerAdminCall<T>(pattern: string, payload: object): Promise<T> {
    return connected(this.workerAdmin).request<T>(pattern, payload);
  }

  async createWorkspace(plan: PlanName = 'pro', name = 'Acme'): Promise<WorkspaceView> {
    return this.adminCall(GatewayAdminPatterns.workspaceCreate, { name, plan });
  }

  async createKey(workspace: string, scope: KeyScope = 'write'): Promise<CreatedKeyView> {
    return this.adminCall(GatewayAdminPatterns.keyCreate, { workspace, scope });
  }

  /**
   * A workspace on `plan` with a key of `scope`, ready to call the API with. Unless
   * `planRateLimit` is set, the per-minute limit is lifted (suites send hundreds of requests a
   * minute); rate-limit tests ask for the plan's own limit.
   */
  async tenant(
    plan: PlanName = 'pro',
    scope: KeyScope = 'write',
    options: { planRateLimit?: boolean } = {},
  ): Promise<Tenant> {
    let workspace = await this.createWorkspace(plan);
    if (!options.planRateLimit && plan !== 'free') {
      workspace = await this.adminCall<WorkspaceView>(GatewayAdminPatterns.workspaceLimits, {
        workspace: workspace.id,
        rate_per_minute: '1000000',
      });
    }
    const key = await this.createKey(workspace.id, scope);
    return new Tenant(this, workspace, key);
  }

  /** The real admin CLI, as its own process, against this stack's queues. */
  cli(...argv: string[]): Promise<Completed> {
    return this.cliWithEnv({}, ...argv);
  }

  /** The admin CLI with `env` over the stack's (a queue nobody serves, a short timeout). */
  cliWithEnv(env: Record<string, string>, ...argv: string[]): Promise<Completed> {
    return runNodeEntry({
      entry: ADMIN_CLI,
      args: argv,
      env: {
        RABBITMQ_URL: this.broker?.adminCli ?? this.env.RABBITMQ_URL,
        ADMIN_QUEUE: this.env.ADMIN_QUEUE,
        REGISTER_ADMIN_QUEUE: this.env.REGISTER_ADMIN_QUEUE,
        WORKER_ADMIN_QUEUE: this.env.WORKER_ADMIN_QUEUE,
        ...env,
      },
    });
  }

  request<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return httpRequest<T>(`${this.baseUrl}${path}`, options);
  }

  private async startGateway(): Promise<void> {
    const { app, port } = await this.launch(
      'gateway',
      {},
      {
        preload: this.probeGatewayPostgres ? [POSTGRES_PROBE] : [],
      },
    );
    this.gateway = app;
    this.baseUrl = apiBaseUrl(port);
  }

  /**
   * Starts `name` on the stack's env (with `env` over it) and resolves once it answers
   * /health on its port: the one in the env if set, else a free one.
   */
  private async launch(
    name: AppName,
    env: Record<string, string> = {},
    options: { preload?: string[] } = {},
  ): Promise<{ app: AppProcess; port: number }> {
    const merged: Record<string, string> = {
      ...this.env,
      ...(this.broker ? { RABBITMQ_URL: this.broker.apps[name] } : {}),
      ...env,
    };
    const variable = APPS[name].port;
    const fixed = Number(merged[variable] ?? 0);
    for (let attempt = 1; ; attempt++) {
      const port = fixed || (await freePort());
      // The gateway's second port (health and metrics) must not clash with other stacks'.
      if (name === 'gateway' && env.HEALTH_PORT === undefined) {
        merged.HEALTH_PORT = String(await freePort());
      }
      const count = this.processes.filter((app) => app.name === name).length + 1;
      const app = AppProcess.start({
        name,
        entry: APPS[name].main,
        env: { ...merged, [variable]: String(port) },
        logFile: path.join(this.logDir, `${name}${count > 1 ? `-${count}` : ''}.log`),
        preload: options.preload,
      });
      this.processes.push(app);
      try {
        await app.waitForHttp(`http://127.0.0.1:${port}/health`);
        const healthPort = name === 'gateway' ? Number(merged.HEALTH_PORT) : port;
        this.healthPorts[name] ??= healthPort;
        return { app, port };
      } catch (error) {
        const taken = /EADDRINUSE/.test(app.logTail());
        if (fixed || !taken || attempt === PORT_ATTEMPTS) throw error;
      }
    }
  }

  private async deleteQueues(): Promise<void> {
    await deleteStackTopology(RABBITMQ_URL, 'custodian-test-cleanup', this.env);
  }
}

function apiBaseUrl(port: number): string {
  return `http://127.0.0.1:${port}/api/v1`;
}

function connected(client: RmqRpcClient | null): RmqRpcClient {
  if (!client) throw new Error('the stack is not started');
  return client;
}

/** Keeps the logs that say something (a crash, or everything at E2E_LOG_LEVEL=info). */
function removeEmptyLogs(dir: string): void {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return;
  }
  for (const file of files) {
    const full = path.join(dir, file);
    if (statSync(full).size === 0) unlinkSync(full);
  }
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/** A workspace and one of its keys: the API as one customer sees it. */
export class Tenant {
  constructor(
    readonly stack: TestStack,
    readonly workspace: WorkspaceView,
    readonly key: CreatedKeyView,
  ) {}

  request<T = unknown>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.stack.request<T>(path, {
      ...options,
      headers: { authorization: `Bearer ${this.key.key}`, ...options.headers },
    });
  }

  get<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>(path);
  }

  post<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>(path, { method: 'POST', body });
  }

  patch<T = unknown>(path: string, body: unknown): Promise<ApiResponse<T>> {
    return this.request<T>(path, { method: 'PATCH', body });
  }

  delete<T = unknown>(path: string): Promise<ApiResponse<T>> {
    return this.request<T>(path, { method: 'DELETE' });
  }
}

export function isDomainError(error: unknown, code: string): boolean {
  return error instanceof DomainError && error.code === code;
}
