import {
  WorkerAdminPatterns,
  type CreatedWebhookView,
  type DeliveryLogEntry,
} from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import { eventually, type AppProcess } from '@custodian/testing';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

const LEASE_MS = 1_500;

/**
 * A receiver that records each delivery id it is sent and, while `holding`, answers nothing:
 * the sending worker has an attempt in flight until it is killed.
 */
class HoldingReceiver {
  holding = false;
  /** Delivery id → the times a request for it arrived. */
  readonly received = new Map<string, number[]>();
  readonly held: ServerResponse[] = [];
  private server!: Server;
  private port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = String(req.headers['x-custodian-delivery']);
        this.received.set(id, [...(this.received.get(id) ?? []), Date.now()]);
        if (this.holding) {
          this.held.push(res);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(route: string): string {
    return `http://127.0.0.1:${this.port}${route}`;
  }

  /** From now on every request is answered 200; held ones (their sender is gone) are dropped. */
  answer(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) res.destroy();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('webhook delivery survives a worker killed mid-attempt (e2e, real processes)', () => {
  // No worker of the stack's own: only the workers this suite starts (and kills) deliver.
  const stack = new TestStack({ worker: false });
  const receiver = new HoldingReceiver();
  const workers: AppProcess[] = [];
  let db: Client;
  let tenant: Tenant;

  beforeAll(async () => {
    await Promise.all([receiver.start(), stack.start()]);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    tenant = await stack.tenant('pro', 'write');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    await db?.end();
    await stack.stop();
    await receiver.stop();
  });

  /** A webhook-worker process on the stack's database and queues; resolves once it listens. */
  async function spawnWorker(): Promise<AppProcess> {
    const worker = await stack.startExtraWorker({
      DELIVERY_LEASE_MS: String(LEASE_MS),
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_INTERVAL_MS: '50',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'error',
    });
    workers.push(worker);
    return worker;
  }

  async function createEndpoint(route: string): Promise<CreatedWebhookView> {
    return stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url(route),
      // Not `*`: events of the tenant's setup, relayed once the worker's queue exists, would
      // add deliveries of their own.
      events: 'asset.created',
    });
  }

  /** Due deliveries for the endpoint, as fan-out would store them. */
  async function createDeliveries(endpoint: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newId('dlv'));
    // Each event's payload first: its delivery references it.
    await db.query(
      `INSERT INTO delivery.event_payloads (event_id, payload)
       SELECT 'evt_' || d.id, jsonb_build_object('id', 'evt_' || d.id, 'event', 'asset.created',
         'created_at', now(), 'data', '{}'::jsonb)
       FROM unnest($1::text[]) AS d (id)`,
      [ids],
    );
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       SELECT d.id, 'evt_' || d.id, $2, $3, 'asset.created'
       FROM unnest($1::text[]) AS d (id)`,
      [ids, endpoint, tenant.workspace.id],
    );
    return ids;
  }

  async function allDelivered(ids: string[]) {
    return eventually(
      async () => {
        const { rows } = await db.query<{ id: string; status: string; attempts: number }>(
          `SELECT id, status, attempts FROM delivery.deliveries WHERE id = ANY($1::text[])`,
          [ids],
        );
        const open = rows.filter((row) => row.status !== 'delivered');
        if (rows.length !== ids.length || open.length > 0) {
          throw new Error(`not delivered: ${JSON.stringify(open)}`);
        }
        return rows;
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
  }

  it('re-sends the attempts a SIGKILLed worker had in flight once their lease runs out, and records them once', async () => {
    const first = await spawnWorker();
    receiver.holding = true;
    const endpoint = await createEndpoint('/crash');
    const ids = await createDeliveries(endpoint.id, 8);

    // The first worker claims a batch (its per-endpoint cap plus what it leases ahead) and
    // sends; nothing answers.
    await eventually(
      () => {
        if (receiver.held.length < 3) throw new Error(`${receiver.held.length} in flight`);
        return Promise.resolve();
      },
      { timeoutMs: 10_000, intervalMs: 5 },
    );
    await first.stop('SIGKILL');
    const killedAt = Date.now();
    const inDoubt = [...receiver.received.keys()].filter((id) => ids.includes(id));
    expect(inDoubt.length).toBeGreaterThanOrEqual(3);
    receiver.answer();

    await spawnWorker();
    const rows = await allDelivered(ids);
    for (const row of rows) expect(row.attempts).toBeGreaterThanOrEqual(1);
    // Three attempts at most, plus the one the dead worker never recorded.
    for (const row of rows) expect(row.attempts).toBeLessThanOrEqual(3 + 1);

    for (const id of inDoubt) {
      // At-least-once: sent again under the same delivery id, and only after the dead
      // worker's lease ran out (it was claimed at most a moment before the first request).
      const times = receiver.received.get(id)!;
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(LEASE_MS - 250);
      expect(times[1]!).toBeGreaterThan(killedAt);
    }

    // The log: the killed worker wrote nothing for its attempts in doubt (they are not
    // recorded); the new worker's successful attempt is, once, numbered after what was.
    const log = await stack.workerAdminCall<DeliveryLogEntry[]>(WorkerAdminPatterns.deliveries, {
      endpoint: endpoint.id,
    });
    expect(log.map((entry) => entry.delivery_id).sort()).toEqual([...ids].sort());
    for (const entry of log) {
      const row = rows.find((r) => r.id === entry.delivery_id)!;
      expect(entry.status).toBe('delivered');
      expect(entry.attempts.map((a) => a.attempt).sort((a, b) => a - b)).toEqual(
        Array.from({ length: row.attempts }, (_, i) => i + 1),
      );
      const last = entry.attempts.find((a) => a.attempt === row.attempts)!;
      expect(last.status_code).toBe(200);
    }
    for (const id of inDoubt) {
      const entry = log.find((e) => e.delivery_id === id)!;
      expect(entry.attempts).toHaveLength(1);
    }
  }, 30_000);

  it('two workers side by side never send the same delivery twice', async () => {
    while (workers.filter((w) => w.running).length < 2) {
      await spawnWorker();
    }
    const endpoints = await Promise.all(['/pair-a', '/pair-b', '/pair-c'].map(createEndpoint));
    const ids: string[] = [];
    for (const endpoint of endpoints) ids.push(...(await createDeliveries(endpoint.id, 10)));
    const rows = await allDelivered(ids);
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    for (const id of ids) expect(receiver.received.get(id)).toHaveLength(1);
  }, 30_000);
});
