import {
  DomainError,
  GatewayAdminPatterns,
  type CreatedKeyView,
  type KeyScope,
  type PlanName,
  type WorkspaceView,
} from '@custodian/contracts';
import { RmqRpcClient, openConnection } from '@custodian/messaging';
import {
  createTestDatabase,
  httpRequest,
  uniqueSuffix,
  type ApiResponse,
  type RequestOptions,
  type TestDatabase,
} from '@custodian/testing';
import type { INestApplication } from '@nestjs/common';
// The end-to-end harness is the one place allowed to import apps: it runs the real apps
// in-process (real HTTP, RabbitMQ, Postgres, Redis) so tests can stop and restart them.
/* eslint-disable @nx/enforce-module-boundaries */
import { runAdmin } from '@custodian/admin';
import { loadGatewayConfig, migrateGateway, startGateway } from '@custodian/gateway';
import { loadRegisterConfig, migrateRegister, startRegister } from '@custodian/register';
import { loadWorkerConfig, migrateWorker, startWorker } from '@custodian/webhook-worker';
/* eslint-enable @nx/enforce-module-boundaries */

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface StackOptions {
  /** Gateway's timeout on register calls; tests of a slow register set it low. */
  registerTimeoutMs?: number;
  /**
   * Env merged over the defaults, for every app (e.g. REDIS_URL of a dedicated server).
   * `stack.env` may also be changed before `start()`, e.g. SMTP_URL of a server the test
   * started on a free port.
   */
  env?: Record<string, string>;
  /**
   * Whether to run the webhook worker in this process (default true). Crash tests set it
   * false and run killable worker processes of their own on `stack.env`.
   */
  worker?: boolean;
}

/**
 * The three real apps, in this process, on a fresh database and their own queues and Redis
 * prefix: end-to-end tests speak HTTP to the gateway, which reaches the register over the
 * real RabbitMQ.
 */
export class TestStack {
  gateway!: INestApplication;
  register: INestApplication | null = null;
  /** Unset when the stack was made with `worker: false`. */
  worker!: INestApplication;
  /** Further gateway processes on the same env (another port), from `startExtraGateway`. */
  readonly extraGateways: INestApplication[] = [];
  baseUrl = '';
  readonly suffix = uniqueSuffix();
  private database!: TestDatabase;
  private admin!: RmqRpcClient;
  private registerAdmin!: RmqRpcClient;
  private workerAdmin!: RmqRpcClient;

  readonly env: Record<string, string>;
  private readonly runWorker: boolean;

  constructor(options: StackOptions = {}) {
    this.runWorker = options.worker ?? true;
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
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      REGISTER_TIMEOUT_MS: String(options.registerTimeoutMs ?? 4_000),
      ...options.env,
    };
    // The register asks the gateway for plans on the gateway's admin queue.
    this.env.GATEWAY_ADMIN_QUEUE ??= this.env.ADMIN_QUEUE!;
  }

  async start(): Promise<this> {
    this.database = await createTestDatabase();
    this.env.DATABASE_URL = this.database.url;
    await migrateGateway(this.database.url);
    await migrateRegister(this.database.url);
    await migrateWorker(this.database.url);
    await this.startRegister();
    if (this.runWorker) this.worker = await startWorker(loadWorkerConfig(this.env));
    this.gateway = await startGateway(loadGatewayConfig(this.env));
    this.baseUrl = `${(await this.gateway.getUrl()).replace('[::1]', '127.0.0.1')}/api/v1`;
    this.admin = new RmqRpcClient({
      url: RABBITMQ_URL,
      queue: this.env.ADMIN_QUEUE!,
      timeoutMs: 5_000,
      connectionName: 'custodian-test-admin',
      serviceName: 'gateway',
    });
    await this.admin.connect();
    this.registerAdmin = new RmqRpcClient({
      url: RABBITMQ_URL,
      queue: this.env.REGISTER_ADMIN_QUEUE!,
      timeoutMs: 5_000,
      connectionName: 'custodian-test-register-admin',
      serviceName: 'register',
    });
    await this.registerAdmin.connect();
    this.workerAdmin = new RmqRpcClient({
      url: RABBITMQ_URL,
      queue: this.env.WORKER_ADMIN_QUEUE!,
      timeoutMs: 5_000,
      connectionName: 'custodian-test-worker-admin',
      serviceName: 'webhook-worker',
    });
    await this.workerAdmin.connect();
    return this;
  }

  async startRegister(): Promise<void> {
    this.register = await startRegister(loadRegisterConfig(this.env));
  }

  /** Another gateway on the same database, queues and Redis; returns its API base URL. */
  async startExtraGateway(): Promise<string> {
    const app = await startGateway(loadGatewayConfig(this.env));
    this.extraGateways.push(app);
    return `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/api/v1`;
  }

  async stopRegister(): Promise<void> {
    await this.register?.close();
    this.register = null;
  }

  async stop(): Promise<void> {
    await this.admin?.close();
    await this.registerAdmin?.close();
    await this.workerAdmin?.close();
    for (const extra of this.extraGateways) await extra.close();
    await this.gateway?.close();
    await this.register?.close();
    await this.worker?.close();
    await this.deleteQueues();
    await this.database?.drop();
  }

  get databaseUrl(): string {
    return this.database.url;
  }

  /** A message to the gateway's admin queue, as the admin CLI sends it. */
  adminCall<T>(pattern: string, payload: object): Promise<T> {
    return this.admin.request<T>(pattern, payload);
  }

  /** A message to the register's admin queue, as the admin CLI sends it. */
  registerAdminCall<T>(pattern: string, payload: object): Promise<T> {
    return this.registerAdmin.request<T>(pattern, payload);
  }

  /** A message to the webhook-worker's admin queue, as the admin CLI sends it. */
  workerAdminCall<T>(pattern: string, payload: object): Promise<T> {
    return this.workerAdmin.request<T>(pattern, payload);
  }

  async createWorkspace(plan: PlanName = 'pro', name = 'Acme'): Promise<WorkspaceView> {
    return this.adminCall(GatewayAdminPatterns.workspaceCreate, { name, plan });
  }

  async createKey(workspace: string, scope: KeyScope = 'write'): Promise<CreatedKeyView> {
    return this.adminCall(GatewayAdminPatterns.keyCreate, { workspace, scope });
  }

  /** A workspace on `plan` with a key of `scope`, ready to call the API with. */
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

  /** The real admin CLI, in-process, against this stack's queues: its exit code and output. */
  async cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(argv, {
      env: {
        RABBITMQ_URL: this.env.RABBITMQ_URL,
        ADMIN_QUEUE: this.env.ADMIN_QUEUE,
        REGISTER_ADMIN_QUEUE: this.env.REGISTER_ADMIN_QUEUE,
        WORKER_ADMIN_QUEUE: this.env.WORKER_ADMIN_QUEUE,
      },
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  }

  request<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return httpRequest<T>(`${this.baseUrl}${path}`, options);
  }

  private async deleteQueues(): Promise<void> {
    const connection = await openConnection(RABBITMQ_URL, 'custodian-test-cleanup');
    try {
      const channel = await connection.createChannel();
      for (const queue of [
        this.env.REGISTER_QUEUE,
        this.env.ADMIN_QUEUE,
        this.env.REGISTER_ADMIN_QUEUE,
        this.env.EVENTS_QUEUE,
        this.env.WORKER_ADMIN_QUEUE,
        this.env.EVENTS_DEAD_LETTER_QUEUE,
      ]) {
        await channel.deleteQueue(queue!);
      }
      await channel.deleteExchange(this.env.EVENTS_EXCHANGE!);
      await channel.deleteExchange(this.env.EVENTS_DEAD_LETTER_EXCHANGE!);
    } finally {
      await connection.close();
    }
  }
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
}

export function isDomainError(error: unknown, code: string): boolean {
  return error instanceof DomainError && error.code === code;
}
