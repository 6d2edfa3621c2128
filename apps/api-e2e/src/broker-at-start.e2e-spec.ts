import { WorkerAdminPatterns, type CreatedWebhookView } from '@custodian/contracts';
import { TcpProxy, WebhookReceiver, eventually, type AppProcess } from '@custodian/testing';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

const BACKLOG = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status of an app's /health, or 0 when nothing answers. */
async function health(port: number): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, {
      signal: AbortSignal.timeout(2_000),
    });
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Issue 31, item 9: an app whose broker goes away while it starts keeps trying, not ready
 * meanwhile, and works once the broker is back. Before, the worker (with a backlog waiting)
 * exited with ECONNREFUSED, and nothing delivered its events until someone started it again.
 * The broker is the machine's RabbitMQ behind a TCP proxy: killing the proxy drops every
 * connection and refuses new ones, as a killed broker does.
 */
describe('the broker killed during each app’s start (e2e, real processes)', () => {
  // No worker of the stack's own: the one started behind the proxy is the only consumer.
  const stack = new TestStack({ worker: false });
  const proxy = new TcpProxy(5672);
  const receiver = new WebhookReceiver();
  const started: AppProcess[] = [];
  let tenant: Tenant;
  let db: Client;

  beforeAll(async () => {
    await Promise.all([stack.start(), receiver.start(), proxy.listen()]);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    tenant = await stack.tenant('pro', 'write');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((app) => app.stop('SIGTERM')));
    await proxy.kill();
    await db?.end();
    await stack.stop();
    await receiver.stop();
  });

  /**
   * Starts a replica of `name` behind the proxy, kills the proxy one second after the spawn
   * and brings it back once the app listens and has been without a broker for 3 s; returns
   * the app and what its /health said during the outage.
   */
  async function startThroughOutage(
    name: 'gateway' | 'register' | 'worker',
    env: Record<string, string> = {},
  ): Promise<{ app: AppProcess; healthPort: number; port: number; duringOutage: number }> {
    const killed = sleep(1_000).then(() => proxy.kill());
    const launched = await stack.startExtra(name, {
      RABBITMQ_URL: `amqp://guest:guest@127.0.0.1:${proxy.port}`,
      LOG_LEVEL: 'warn',
      ...env,
    });
    started.push(launched.app);
    await killed;
    await sleep(3_000);
    const duringOutage = await health(launched.healthPort);
    expect({ name, running: launched.app.running }).toEqual({ name, running: true });
    await proxy.listen();
    return { ...launched, duringOutage };
  }

  it('the worker waits out the broker and then delivers its backlog of 1,000 events', async () => {
    // The endpoint, through a worker on the broker itself (stopped again: no other consumer).
    const helper = await stack.startExtraWorker();
    const endpoint = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: tenant.workspace.id, url: receiver.url('/backlog'), events: 'asset.created' },
    );
    expect(endpoint.id).toMatch(/^whe_/);
    await helper.stop('SIGTERM');
    // The backlog: the register's relay publishes them to the worker's (durable) queue.
    await db.query(
      `INSERT INTO register.outbox (id, workspace_id, event, data)
       SELECT 'evt_backlog_' || g, $1, 'asset.created', jsonb_build_object('id', 'ast_' || g)
       FROM generate_series(1, $2::int) g`,
      [tenant.workspace.id, BACKLOG],
    );
    await eventually(
      async () => {
        const [{ left }] = (
          await db.query<{ left: number }>(
            `SELECT count(*)::int AS left FROM register.outbox
             WHERE id LIKE 'evt_backlog_%' AND published_at IS NULL`,
          )
        ).rows as [{ left: number }];
        expect(left).toBe(0);
      },
      { timeoutMs: 20_000 },
    );

    const { app, healthPort, duringOutage } = await startThroughOutage('worker', {
      DELIVERY_INTERVAL_MS: '50',
    });
    expect(duringOutage).not.toBe(200);
    await eventually(async () => expect(await health(healthPort)).toBe(200), {
      timeoutMs: 20_000,
    });
    await eventually(
      () => {
        const ids = new Set(
          receiver.on('/backlog').map((hook) => (JSON.parse(hook.rawBody) as { id: string }).id),
        );
        expect(ids.size).toBe(BACKLOG);
        return Promise.resolve();
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(app.running).toBe(true);
  }, 90_000);

  it('the register waits out the broker and then serves (ready)', async () => {
    const { healthPort, duringOutage } = await startThroughOutage('register');
    expect(duringOutage).not.toBe(200);
    await eventually(async () => expect(await health(healthPort)).toBe(200), {
      timeoutMs: 20_000,
    });
  }, 60_000);

  it('the gateway waits out the broker and then answers the API through the register', async () => {
    const { healthPort, port, duringOutage } = await startThroughOutage('gateway');
    expect(duringOutage).not.toBe(200);
    await eventually(async () => expect(await health(healthPort)).toBe(200), {
      timeoutMs: 20_000,
    });
    const assets = await fetch(`http://127.0.0.1:${port}/api/v1/assets`, {
      headers: { 'x-api-key': tenant.key.key },
    });
    expect(assets.status).toBe(200);
  }, 60_000);

  it('an app whose Postgres is down at start waits for it instead of exiting', async () => {
    const postgres = new TcpProxy(5432);
    const port = await postgres.listen();
    await postgres.kill();
    const url = new URL(stack.databaseUrl);
    url.port = String(port);
    url.hostname = '127.0.0.1';
    // Postgres comes back 3 s after the spawn; the worker must still be there to use it.
    const back = sleep(3_000).then(() => postgres.listen());
    try {
      const { app, healthPort } = await stack.startExtra('worker', {
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'warn',
      });
      started.push(app);
      await back;
      await eventually(async () => expect(await health(healthPort)).toBe(200), {
        timeoutMs: 20_000,
      });
      expect(app.running).toBe(true);
    } finally {
      await back;
      await postgres.kill();
    }
  }, 60_000);
});
