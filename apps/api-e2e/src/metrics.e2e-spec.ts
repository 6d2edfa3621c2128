import { WorkerAdminPatterns, type CreatedWebhookView } from '@custodian/contracts';
import { eventually, WebhookReceiver } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

type App = 'gateway' | 'register' | 'worker';

/**
 * The value of the series `name` whose labels include `labels`, from Prometheus text; the sum
 * when several match (other labels differ), undefined when none does.
 */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = new Map(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(
        (pair) => [pair[1], pair[2]] as const,
      ),
    );
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) {
      total = (total ?? 0) + Number(match[3]);
    }
  }
  return total;
}

/**
 * Issue 15, item 3: /metrics in Prometheus text on each app's health port, never the public
 * one, with the figures an operator needs, and no ids in any label.
 */
describe('metrics on the health ports (e2e)', () => {
  const stack = new TestStack({
    env: { OUTBOX_POLL_MS: '50', DELIVERY_INTERVAL_MS: '50' },
  });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;

  const scrape = async (app: App): Promise<string> => {
    const response = await stack.opsRequest(app, '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    await receiver.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
  });

  it('answers /health/live and /metrics on every health port, and not on the public one', async () => {
    for (const app of ['gateway', 'register', 'worker'] as const) {
      const live = await stack.opsRequest(app, '/health/live');
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const text = await scrape(app);
      const name = app === 'worker' ? 'webhook-worker' : app;
      expect(sample(text, 'custodian_amqp_connected', { app: name })).toBe(1);
      expect(sample(text, 'custodian_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(sample(text, 'process_resident_memory_bytes', { app: name })).toBeGreaterThan(0);
      // Sampled every 100 ms, not prom-client's 10: still there for the lag alert to read.
      expect(
        sample(text, 'nodejs_eventloop_lag_p99_seconds', { app: name }),
      ).toBeGreaterThanOrEqual(0);
    }
    const ready = await stack.opsRequest('gateway', '/health');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok' });
    for (const path of ['/metrics', '/health/live']) {
      const publicPort = await stack.request(`/../..${path}`);
      expect(publicPort.status).toBe(404);
    }
    expect((await tenant.get('/metrics')).status).toBe(404);
  });

  it('moves with a write: HTTP, RPC at both ends, outbox, consumption and delivery', async () => {
    await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/metered'),
      events: 'asset.created',
    });
    const created = await tenant.post<{ id: string }>('/assets', { name: 'Metered' });
    expect(created.status).toBe(201);
    await eventually(() => {
      if (receiver.on('/metered').length === 0) throw new Error('no delivery yet');
      return Promise.resolve();
    });

    const gateway = await scrape('gateway');
    expect(
      sample(gateway, 'custodian_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/assets',
        status: '201',
      }),
    ).toBe(1);
    expect(
      sample(gateway, 'custodian_rpc_client_duration_seconds_count', {
        target: 'register',
        pattern: 'assets.create',
        outcome: 'ok',
      }),
    ).toBe(1);

    const register = await scrape('register');
    expect(
      sample(register, 'custodian_rpc_server_duration_seconds_count', {
        pattern: 'assets.create',
        outcome: 'ok',
      }),
    ).toBe(1);
    expect(sample(register, 'custodian_outbox_backlog', { schema: 'register' })).toBe(0);
    expect(sample(register, 'custodian_outbox_oldest_age_seconds', { schema: 'register' })).toBe(0);
    expect(sample(register, 'custodian_outbox_listening', { schema: 'register' })).toBe(1);

    // The worker counts an attempt once its answer is in; the receiver may see it first.
    const worker = await eventually(async () => {
      const text = await scrape('worker');
      const delivered = sample(text, 'custodian_deliveries_total', {
        outcome: 'delivered',
        status_class: '2xx',
      });
      if (delivered !== 1) throw new Error(`delivered: ${delivered}`);
      return text;
    });
    expect(sample(worker, 'custodian_events_consumed_total', { event: 'asset.created' })).toBe(1);
    expect(
      sample(worker, 'custodian_delivery_attempt_duration_seconds_count', { outcome: 'delivered' }),
    ).toBe(1);
    expect(sample(worker, 'custodian_delivery_end_to_end_seconds_count')).toBe(1);
    expect(sample(worker, 'custodian_delivery_leases_held')).toBeGreaterThanOrEqual(0);
    // Its one delivery is done: nothing is due and waiting for a worker.
    expect(sample(worker, 'custodian_deliveries_due')).toBe(0);
    expect(sample(worker, 'custodian_delivery_oldest_due_age_seconds')).toBe(0);

    // Low cardinality: no workspace, asset, key, endpoint or delivery id in any label.
    for (const text of [gateway, register, worker]) {
      expect(text).not.toMatch(/"(wsp|ast|key|whe|dlv|evt|per)_[0-9a-z]+"/);
      expect(text).not.toContain(created.body.id);
    }
  });

  it('counts refusals by plan and reason, and requests by route template', async () => {
    const free = await stack.tenant('free', 'write');
    expect((await free.get('/assets')).status).toBe(403);
    const missing = await tenant.get('/assets/ast_00000000000000000000000000');
    expect(missing.status).toBe(404);
    const gateway = await scrape('gateway');
    expect(
      sample(gateway, 'custodian_limit_refusals_total', { plan: 'free', reason: 'plan' }),
    ).toBe(1);
    expect(
      sample(gateway, 'custodian_http_request_duration_seconds_count', {
        route: '/api/v1/assets/:id',
        status: '404',
      }),
    ).toBe(1);
  });
});
