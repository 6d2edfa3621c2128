import { newId } from '@custodian/runtime';
import { createTestDatabase, eventually, type TestDatabase } from '@custodian/testing';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { DeliveryScheduler } from './delivery-scheduler';

/**
 * A receiver that answers after `delayMs` (or never, while `hang`), and records per path how
 * many requests it had at once, and for each request how long its delivery's lease still ran.
 */
class Receiver {
  hang = false;
  delayMs = 0;
  readonly held: ServerResponse[] = [];
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  readonly received: Array<{ path: string; delivery: string }> = [];
  /** Per request, ms left on the delivery's lease when it arrived. */
  readonly leaseLeft: number[] = [];
  private server!: Server;
  private port = 0;

  constructor(private readonly db: () => DataSource) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = req.url ?? '/';
        const delivery = String(req.headers['x-custodian-delivery']);
        this.received.push({ path, delivery });
        const now = (this.inFlight.get(path) ?? 0) + 1;
        this.inFlight.set(path, now);
        this.maxInFlight.set(path, Math.max(now, this.maxInFlight.get(path) ?? 0));
        res.on('close', () => this.inFlight.set(path, this.inFlight.get(path)! - 1));
        void this.db()
          .query<Array<{ left: number }>>(
            `SELECT extract(epoch FROM lease_until - now()) * 1000 AS left
             FROM delivery.deliveries WHERE id = $1`,
            [delivery],
          )
          .then((rows) => this.leaseLeft.push(Number(rows[0]?.left ?? -1)));
        if (this.hang) {
          this.held.push(res);
          return;
        }
        setTimeout(() => res.writeHead(200).end('ok'), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('DeliveryScheduler against Postgres: caps, prefetch, leases, batched records', () => {
  let database: TestDatabase;
  let db: DataSource;
  const receiver = new Receiver(() => db);
  const schedulers: DeliveryScheduler[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateWorker(database.url);
    db = await workerDataSource(database.url, 4).initialize();
    await receiver.start();
  }, 30_000);

  afterEach(async () => {
    receiver.hang = false;
    for (const res of receiver.held.splice(0)) res.destroy();
    await Promise.all(schedulers.splice(0).map((s) => s.onApplicationShutdown()));
  });

  afterAll(async () => {
    await receiver.stop();
    await db?.destroy();
    await database?.drop();
  });

  function scheduler(env: Record<string, string>): DeliveryScheduler {
    const config = loadWorkerConfig({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DELIVERY_INTERVAL_MS: '50',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '5000',
      ...env,
    });
    const created = new DeliveryScheduler(db, config);
    created.onApplicationBootstrap();
    schedulers.push(created);
    return created;
  }

  async function endpoint(path: string): Promise<string> {
    const id = newId('whe');
    await db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ($1, 'wsp_test', $2, '{*}', 'whsec_test')`,
      [id, receiver.url(path)],
    );
    return id;
  }

  /** Due deliveries for the endpoint, as fan-out stores them. */
  async function deliveries(endpointId: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newId('dlv'));
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event, payload)
       SELECT d.id, 'evt_' || d.id, $2, 'wsp_test', 'asset.created',
         jsonb_build_object('id', 'evt_' || d.id, 'event', 'asset.created',
           'created_at', now(), 'data', '{}'::jsonb)
       FROM unnest($1::text[]) AS d (id)`,
      [ids, endpointId],
    );
    return ids;
  }

  async function states(ids: string[]) {
    return db.query<
      Array<{ id: string; status: string; attempts: number; leased: boolean; logged: number }>
    >(
      `SELECT d.id, d.status, d.attempts, d.lease_until > now() AS leased,
         (SELECT count(*)::int FROM delivery.delivery_attempts a WHERE a.delivery_id = d.id)
           AS logged
       FROM delivery.deliveries d WHERE d.id = ANY ($1::text[])`,
      [ids],
    );
  }

  it('delivers a backlog once each, one log row per attempt, never over the per-endpoint cap', async () => {
    receiver.delayMs = 10;
    const id = await endpoint('/backlog');
    const ids = await deliveries(id, 60);
    scheduler({ DELIVERY_PER_ENDPOINT: '3', DELIVERY_PREFETCH: '4' });
    const rows = await eventually(
      async () => {
        const now = await states(ids);
        if (now.some((row) => row.status !== 'delivered')) throw new Error('not all delivered');
        return now;
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    expect(rows.every((row) => row.attempts === 1 && row.logged === 1 && !row.leased)).toBe(true);
    const sent = receiver.received.filter((r) => r.path === '/backlog').map((r) => r.delivery);
    expect(sent.sort()).toEqual([...ids].sort());
    expect(receiver.maxInFlight.get('/backlog')).toBeLessThanOrEqual(3);
  }, 20_000);

  it('a hanging endpoint holds only its slots and prefetch; another is served meanwhile', async () => {
    receiver.delayMs = 0;
    const hanging = await endpoint('/hangs');
    const hangingIds = await deliveries(hanging, 20);
    receiver.hang = true;
    scheduler({
      DELIVERY_PER_ENDPOINT: '3',
      DELIVERY_PREFETCH: '2',
      DELIVERY_TIMEOUT_MS: '10000',
      DELIVERY_LEASE_MS: '30000',
    });
    await eventually(() => {
      if ((receiver.inFlight.get('/hangs') ?? 0) < 3) throw new Error('not yet hanging');
      return Promise.resolve();
    });
    receiver.hang = false;
    const fast = await endpoint('/fast');
    const fastIds = await deliveries(fast, 5);
    const started = Date.now();
    await eventually(
      async () => {
        if ((await states(fastIds)).some((row) => row.status !== 'delivered')) {
          throw new Error('fast endpoint not served');
        }
      },
      { timeoutMs: 2_000, intervalMs: 20 },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    const held = await states(hangingIds);
    // 3 hanging in flight, 2 leased ahead, the rest untouched.
    expect(held.filter((row) => row.leased)).toHaveLength(5);
    expect(held.every((row) => row.status === 'pending' && row.logged === 0)).toBe(true);
    expect(receiver.received.filter((r) => r.path === '/hangs')).toHaveLength(3);
  }, 15_000);

  it('starts no attempt that could outlive its lease: one that waited too long goes back first', async () => {
    // Attempts take up to 1 s and leases last 1.5 s: a delivery that waited more than 0.5 s
    // for a slot must be leased again before it is sent.
    const id = await endpoint('/slow-first');
    const ids = await deliveries(id, 4);
    receiver.hang = true;
    const before = receiver.leaseLeft.length;
    scheduler({
      DELIVERY_PER_ENDPOINT: '1',
      DELIVERY_PREFETCH: '3',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '1500',
    });
    await eventually(() => {
      if (receiver.held.length < 1) throw new Error('first attempt not sent');
      return Promise.resolve();
    });
    receiver.hang = false;
    // The first attempt times out after 1 s (a retry, 300 ms later); the others go through.
    await eventually(
      async () => {
        if ((await states(ids)).some((row) => row.status !== 'delivered')) {
          throw new Error('not delivered');
        }
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    const left = receiver.leaseLeft.slice(before);
    expect(left.length).toBeGreaterThanOrEqual(5);
    for (const ms of left) expect(ms).toBeGreaterThan(1_000 - 100);
  }, 15_000);

  it('on shutdown gives back the leases of deliveries still waiting for a slot', async () => {
    const id = await endpoint('/shutdown');
    const ids = await deliveries(id, 4);
    receiver.hang = true;
    const stopping = scheduler({ DELIVERY_PER_ENDPOINT: '1', DELIVERY_PREFETCH: '3' });
    await eventually(async () => {
      const leased = (await states(ids)).filter((row) => row.leased);
      if (leased.length < 4 || receiver.held.length < 1) throw new Error('not all leased yet');
    });
    schedulers.splice(schedulers.indexOf(stopping), 1);
    await stopping.onApplicationShutdown(); // the hanging attempt times out (1 s), recorded
    const rows = await states(ids);
    const attempted = rows.filter((row) => row.attempts === 1);
    expect(attempted).toHaveLength(1);
    expect(attempted[0]!.logged).toBe(1);
    expect(rows.filter((row) => row.attempts === 0).every((row) => !row.leased)).toBe(true);
  }, 15_000);
});
