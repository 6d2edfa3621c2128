import {
  WorkerAdminPatterns,
  type AssetDetail,
  type CreatedWebhookView,
  type DeliveryLogEntry,
  type EventEnvelope,
  type WebhookTestView,
} from '@custodian/contracts';
import { eventually, WebhookReceiver } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

const SLOW_EVENTS = 20;
const FAST_EVENTS = 5;

describe('webhook delivery: a receiver that never answers does not starve the others (e2e)', () => {
  // The spec's 10 s attempt timeout (set explicitly), so the slow receiver's attempts are
  // all still hanging while the fast one is served.
  const stack = new TestStack({
    env: {
      DELIVERY_TIMEOUT_MS: '10000',
      DELIVERY_LEASE_MS: '30000',
      DELIVERY_INTERVAL_MS: '50',
    },
  });
  const slow = new WebhookReceiver();
  const fast = new WebhookReceiver();
  let tenant: Tenant;

  beforeAll(async () => {
    await slow.start();
    await fast.start();
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(async () => {
    // Hanging sockets first: the worker's shutdown waits for attempts in flight, and each
    // would otherwise sit out its 10 s timeout.
    await slow.stop();
    await fast.stop();
    await stack.stop();
  }, 30_000);

  function deliveries(endpoint: string): Promise<DeliveryLogEntry[]> {
    return stack.workerAdminCall(WorkerAdminPatterns.deliveries, { endpoint, limit: '100' });
  }

  it('delivers every event of a fast endpoint within 1 s while 20 deliveries to a hanging one are pending', async () => {
    slow.script('/hangs', 'hang');
    const hanging = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: tenant.workspace.id, url: slow.url('/hangs'), events: 'employee.offboarded' },
    );
    const quick = await stack.workerAdminCall<CreatedWebhookView>(
      WorkerAdminPatterns.webhookCreate,
      { workspace: tenant.workspace.id, url: fast.url('/fast'), events: 'asset.created' },
    );

    // The slow endpoint's backlog first: 20 pings, all due now.
    const pings: WebhookTestView[] = [];
    for (let i = 0; i < SLOW_EVENTS; i++) {
      pings.push(
        await stack.workerAdminCall<WebhookTestView>(WorkerAdminPatterns.webhookTest, {
          id: hanging.id,
        }),
      );
    }
    // The worker has started on them: some attempts are hanging on the slow receiver.
    await eventually(() => {
      if (slow.on('/hangs').length === 0) throw new Error('no attempt on the slow endpoint yet');
      return Promise.resolve();
    });

    // Then the fast endpoint's events, each timed from its creation.
    const created: AssetDetail[] = [];
    for (let i = 0; i < FAST_EVENTS; i++) {
      const response = await tenant.post<AssetDetail>('/assets', { name: `Fast ${i}` });
      expect(response.status).toBe(201);
      created.push(response.body);
    }
    await eventually(
      () => {
        if (fast.on('/fast').length < FAST_EVENTS) {
          throw new Error(`${fast.on('/fast').length} of ${FAST_EVENTS} fast deliveries`);
        }
        return Promise.resolve();
      },
      { timeoutMs: 5_000, intervalMs: 20 },
    );

    const arrivals = fast.on('/fast').map((request) => {
      const envelope = JSON.parse(request.rawBody) as EventEnvelope<AssetDetail>;
      return {
        asset: envelope.data.id,
        lagMs: request.receivedAt - Date.parse(envelope.created_at),
      };
    });
    expect(arrivals.map((a) => a.asset).sort()).toEqual(created.map((a) => a.id).sort());
    for (const arrival of arrivals) {
      expect(arrival.lagMs).toBeLessThan(1_000);
    }

    // Meanwhile the slow endpoint has everything still pending: nothing answered, nothing
    // timed out yet, and no more than its per-endpoint share in flight.
    const slowLog = await deliveries(hanging.id);
    expect(slowLog).toHaveLength(SLOW_EVENTS);
    expect(new Set(slowLog.map((entry) => entry.delivery_id))).toEqual(
      new Set(pings.map((ping) => ping.delivery_id)),
    );
    expect(slowLog.every((entry) => entry.status === 'pending')).toBe(true);
    expect(slowLog.every((entry) => entry.attempts.length === 0)).toBe(true);
    expect(slow.on('/hangs').length).toBeGreaterThan(0);
    expect(slow.on('/hangs').length).toBeLessThan(SLOW_EVENTS);

    const fastLog = await eventually(async () => {
      const log = await deliveries(quick.id);
      if (log.length < FAST_EVENTS || log.some((entry) => entry.status !== 'delivered')) {
        throw new Error(JSON.stringify(log));
      }
      return log;
    });
    expect(fastLog.every((entry) => entry.attempts.length === 1)).toBe(true);
  }, 15_000);
});
