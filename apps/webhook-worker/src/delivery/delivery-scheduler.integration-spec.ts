import { newId } from '@custodian/persistence';
import { createMigratedDatabase, eventually, type MigratedDatabase } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import { DeliveryLeases } from './delivery-leases';
import { DeliveryScheduler } from './delivery-scheduler';
import { insertPayloads } from './testing/payloads';

/**
 * A receiver that answers after `delayMs` (or never, while `hang`), and records per path how
 * many requests it had at once, and for each request how long its delivery's lease still ran.
 */
class Receiver {
  hang = false;
  /** When set, whether a request to the path never answers (instead of hang). */
  hangFor: ((path: string) => boolean) | null = null;
  delayMs = 0;
  /** When set, the delay of each request by its path (instead of delayMs). */
  delayFor: ((path: string) => number) | null = null;
  readonly held: ServerResponse[] = [];
  readonly inFlight = new Map<string, number>();
  readonly maxInFlight = new Map<string, number>();
  /** Each request as it arrived (at: ms since the epoch). */
  readonly received: Array<{ path: string; delivery: string; at: number }> = [];
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
        this.received.push({ path, delivery, at: Date.now() });
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
        if (this.hangFor?.(path) ?? this.hang) {
          this.held.push(res);
          return;
        }
        setTimeout(() => res.writeHead(200).end('ok'), this.delayFor?.(path) ?? this.delayMs);
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
  let store: MigratedDatabase;
  let db: DataSource;
  const receiver = new Receiver(() => db);
  const schedulers: DeliveryScheduler[] = [];

  beforeAll(async () => {
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 4));
    db = store.db;
    await receiver.start();
  }, 30_000);

  afterEach(async () => {
    receiver.hang = false;
    receiver.hangFor = null;
    receiver.delayFor = null;
    for (const res of receiver.held.splice(0)) res.destroy();
    await Promise.all(schedulers.splice(0).map((s) => s.beforeApplicationShutdown()));
    // Each test starts from an empty table: what one leaves due is not sent in the next.
    await db.query(`DELETE FROM delivery.endpoints`);
  });

  afterAll(async () => {
    await receiver.stop();
    await store?.close();
  });

  /** A scheduler on the test database (or on `through`, a wrapper of it). */
  function scheduler(env: Record<string, string>, through?: DataSource): DeliveryScheduler {
    const config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DELIVERY_INTERVAL_MS: '50',
      DELIVERY_TIMEOUT_MS: '1000',
      DELIVERY_LEASE_MS: '5000',
      ...env,
    });
    const created = new DeliveryScheduler(through ?? db, config);
    created.onApplicationBootstrap();
    schedulers.push(created);
    return created;
  }

  async function endpoint(path: string, workspace = 'wsp_test'): Promise<string> {
    const id = newId('whe');
    await db.query(
      `INSERT INTO delivery.endpoints (id, workspace_id, url, events, secret)
       VALUES ($1, $3, $2, '{*}', $4)`,
      [id, receiver.url(path), workspace, signingSecretCipher().encrypt('whsec_test')],
    );
    return id;
  }

  /** Due deliveries for the endpoint, as fan-out stores them. */
  async function deliveries(
    endpointId: string,
    count: number,
    ids = Array.from({ length: count }, () => newId('dlv')),
  ): Promise<string[]> {
    const createdAt = new Date().toISOString();
    await insertPayloads(
      db,
      ids.map((id) => `evt_${id}`),
      (eventId) => ({ id: eventId, event: 'asset.created', created_at: createdAt, data: {} }),
    );
    await db.query(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       SELECT d.id, 'evt_' || d.id, e.id, e.workspace_id, 'asset.created'
       FROM unnest($1::text[]) AS d (id), delivery.endpoints e WHERE e.id = $2`,
      [ids, endpointId],
    );
    return ids;
  }

  /** Deliveries [id, endpoint, ms] that fell due an hour ago plus ms. */
  async function dueDeliveries(rows: Array<[string, string, number]>): Promise<void> {
    await insertPayloads(
      db,
      rows.map(([id]) => `evt_${id}`),
    );
    await db.query(
      `INSERT INTO delivery.deliveries
         (id, event_id, endpoint_id, workspace_id, event, next_attempt_at)
       SELECT d.id, 'evt_' || d.id, d.endpoint_id, 'wsp_test', 'asset.created',
         now() - interval '1 hour' + d.ms * interval '1 millisecond'
       FROM unnest($1::text[], $2::text[], $3::int[]) AS d (id, endpoint_id, ms)`,
      [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])],
    );
  }

  /**
   * Four deliveries to an endpoint that never answers, one slot per endpoint: one attempt
   * hangs, three wait leased for a slot.
   */
  async function oneHangingThreeWaiting(path: string) {
    const ids = await deliveries(await endpoint(path), 4);
    receiver.hang = true;
    const stopping = scheduler({ DELIVERY_PER_ENDPOINT: '1', DELIVERY_PREFETCH: '3' });
    await eventually(async () => {
      const leased = (await states(ids)).filter((row) => row.leased);
      if (leased.length < 4 || receiver.held.length < 1) throw new Error('not all leased yet');
    });
    return { ids, stopping };
  }

  async function states(ids: string[]) {
    return db.query<
      Array<{ id: string; status: string; attempts: number; leased: boolean; logged: number }>
    >(
      `SELECT d.id, d.status, d.attempts, coalesce(d.lease_until > now(), false) AS leased,
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

  it('sends nothing to a disabled endpoint; its deliveries wait and go out once it is enabled again', async () => {
    const off = await endpoint('/disabled');
    const on = await endpoint('/enabled');
    await db.query(
      `UPDATE delivery.endpoints
       SET enabled = false, disabled_reason = 'manual', disabled_at = now() WHERE id = $1`,
      [off],
    );
    const waiting = await deliveries(off, 3);
    const served = await deliveries(on, 2);
    scheduler({});
    await eventually(async () => {
      const rows = await states(served);
      if (rows.some((row) => row.status !== 'delivered')) throw new Error('not delivered yet');
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // six more claims at 50 ms
    expect(receiver.received.filter((r) => r.path === '/disabled')).toEqual([]);
    expect((await states(waiting)).map((row) => [row.status, row.attempts, row.leased])).toEqual([
      ['pending', 0, false],
      ['pending', 0, false],
      ['pending', 0, false],
    ]);

    await db.query(
      `UPDATE delivery.endpoints
       SET enabled = true, disabled_reason = NULL, disabled_at = NULL WHERE id = $1`,
      [off],
    );
    await eventually(async () => {
      const rows = await states(waiting);
      if (rows.some((row) => row.status !== 'delivered')) throw new Error('not delivered yet');
    });
  });

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

  it("twenty dead endpoints in one workspace delay no other workspace's delivery by a second", async () => {
    receiver.hangFor = (path) => path.startsWith('/dead');
    const dead: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await endpoint(`/dead/${i}`, 'wsp_dead');
      await deliveries(id, 40);
      dead.push(id);
    }
    // The production defaults: only the attempt timeout and lease as they are in production.
    const running = scheduler({ DELIVERY_TIMEOUT_MS: '10000', DELIVERY_LEASE_MS: '30000' });
    await eventually(
      () => {
        const hanging = [...receiver.inFlight].filter(([path]) => path.startsWith('/dead'));
        if (hanging.reduce((sum, [, n]) => sum + n, 0) < 10) throw new Error('not yet hanging');
        return Promise.resolve();
      },
      { timeoutMs: 3_000, intervalMs: 20 },
    );
    const healthy = await endpoint('/healthy', 'wsp_healthy');
    for (let round = 0; round < 5; round++) {
      const [id = ''] = await deliveries(healthy, 1);
      const stored = Date.now();
      void running.tick(); // as fan-out does once it has stored deliveries
      await eventually(
        () => {
          if (!receiver.received.some((r) => r.delivery === id)) throw new Error('not yet sent');
          return Promise.resolve();
        },
        { timeoutMs: 3_000, intervalMs: 10 },
      );
      expect(Date.now() - stored).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The dead workspace holds its own cap (20 in flight, 20 + 20 leased), not every slot.
    const hanging = receiver.received.filter((r) => r.path.startsWith('/dead'));
    expect(hanging).toHaveLength(20);
    const [{ leased = 0 } = {}] = await db.query<Array<{ leased: number }>>(
      `SELECT count(*)::int AS leased FROM delivery.deliveries
       WHERE workspace_id = 'wsp_dead' AND lease_until > now()`,
    );
    expect(leased).toBe(40);
  }, 30_000);

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
    const { ids, stopping } = await oneHangingThreeWaiting('/shutdown');
    schedulers.splice(schedulers.indexOf(stopping), 1);
    await stopping.beforeApplicationShutdown(); // the hanging attempt times out (1 s), recorded
    const rows = await states(ids);
    const attempted = rows.filter((row) => row.attempts === 1);
    expect(attempted).toHaveLength(1);
    expect(attempted[0]!.logged).toBe(1);
    expect(rows.filter((row) => row.attempts === 0).every((row) => !row.leased)).toBe(true);
  }, 15_000);

  /** Attempts recorded per delivery. */
  async function loggedAttempts(ids: string[]): Promise<Map<string, number>> {
    const rows = await db.query<Array<{ id: string; n: number }>>(
      `SELECT delivery_id AS id, count(*)::int AS n FROM delivery.delivery_attempts
       WHERE delivery_id = ANY ($1::text[]) GROUP BY delivery_id`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.n]));
  }

  it('serves an endpoint whose delivery waits behind busy ones fairly, and sends nothing twice', async () => {
    // Five busy endpoints fill all 20 slots (4 each) for seconds. One more endpoint has a
    // single delivery, the first due, claimed in the first round with theirs and ordered after
    // them. It must get one of the next free slots, well within its lease (1 s); a copy that
    // waited too long must go back, and this worker must not claim it again while it holds it.
    // The receiver answers in at most 250 ms, well within the attempt timeout (600 ms), so
    // attempts do not time out unless the machine stalls; one that does is retried (a second
    // request, under a lease of its own and with its own attempt number).
    receiver.delayFor = (path) => (path === '/late' ? 50 : 100 + Math.random() * 150);
    const busy: string[] = [];
    for (const path of ['/busy-a', '/busy-b', '/busy-c', '/busy-d', '/busy-e']) {
      busy.push(await endpoint(path));
    }
    const late = await endpoint('/late');
    const rows: Array<[string, string, number]> = [];
    for (let i = 0; i < 100; i++) {
      for (const id of busy) rows.push([newId('dlv'), id, i * 1000]);
    }
    const lateId = newId('dlv'); // after every busy one in id order
    rows.push([lateId, late, -5]);
    await dueDeliveries(rows);
    const ids = rows.map(([id]) => id);
    const started = Date.now();
    scheduler({
      DELIVERY_CONCURRENCY: '20',
      DELIVERY_PER_ENDPOINT: '4',
      DELIVERY_PREFETCH: '8',
      DELIVERY_TIMEOUT_MS: '600',
      DELIVERY_LEASE_MS: '1000',
    });
    const final = await eventually(
      async () => {
        const now = await states(ids);
        if (now.some((row) => row.status !== 'delivered')) throw new Error('not all delivered');
        return now;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    // What may still be on its way to the receiver arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const wanted = new Set(ids);
    const sent = new Map<string, number>();
    for (const { delivery } of receiver.received) {
      if (wanted.has(delivery)) sent.set(delivery, (sent.get(delivery) ?? 0) + 1);
    }
    // Every request is an attempt of its own, recorded once: never two requests under one
    // lease (a copy given back, or claimed again while this worker held it, would be sent
    // twice under one attempt number, and recorded once).
    const logged = await loggedAttempts(ids);
    expect([...sent].filter(([id, times]) => times > (logged.get(id) ?? 0))).toEqual([]);
    expect(sent.size).toBe(ids.length);
    expect(final.every((row) => row.logged === row.attempts && !row.leased)).toBe(true);
    // A second attempt only after a first that went unanswered within the timeout.
    const retried = final.filter((row) => row.attempts > 1).map((row) => row.id);
    const firstTries = await db.query<Array<{ error: string | null }>>(
      `SELECT error FROM delivery.delivery_attempts
       WHERE delivery_id = ANY ($1::text[]) AND attempt < (
         SELECT attempts FROM delivery.deliveries d WHERE d.id = delivery_id)`,
      [retried],
    );
    expect(firstTries.every((row) => row.error === 'timeout')).toBe(true);
    const lateSent = receiver.received.filter((r) => r.delivery === lateId);
    expect(lateSent.length).toBeGreaterThanOrEqual(1);
    expect(lateSent[0]!.at - started).toBeLessThan(1_000);
  }, 40_000);

  it('never claims again a delivery whose attempt it still has in flight, even once its lease ran out', async () => {
    // The attempt hangs and its lease runs out under it (as on a stalled machine): a claim
    // that took it again would send it a second time while the first request is open.
    const id = await endpoint('/outlived');
    const [only] = await deliveries(id, 1);
    receiver.hang = true;
    scheduler({ DELIVERY_PER_ENDPOINT: '2', DELIVERY_TIMEOUT_MS: '3000' });
    await eventually(() => {
      if (receiver.held.length < 1) throw new Error('attempt not sent');
      return Promise.resolve();
    });
    await db.query(
      `UPDATE delivery.deliveries SET lease_until = now() - interval '1 second' WHERE id = $1`,
      [only],
    );
    // Many claim rounds (every 50 ms) while the attempt is open.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((r) => r.delivery === only)).toHaveLength(1);
    for (const res of receiver.held.splice(0)) res.writeHead(200).end('ok');
    const [row] = await eventually(
      async () => {
        const now = await states([only!]);
        if (now[0]?.status !== 'delivered') throw new Error('not recorded');
        return now;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    expect(row).toMatchObject({ attempts: 1, logged: 1, leased: false });
    expect(receiver.received.filter((r) => r.delivery === only)).toHaveLength(1);
  }, 15_000);

  it('gives back a delivery waiting for a slot before its lease is too short to send it, while no slot frees', async () => {
    // Attempts take up to 1 s and leases last 1.5 s; the one slot hangs for that second. What
    // waits behind it must not keep a lease that has less than an attempt (and the time to
    // record it) left: it is given back (and may be leased afresh).
    const id = await endpoint('/no-slot');
    const ids = await deliveries(id, 4);
    receiver.hang = true;
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
    const sentAt = Date.now();
    const inFlight = receiver.received.find((r) => r.path === '/no-slot')!.delivery;
    const waiting = ids.filter((each) => each !== inFlight);
    let least = Infinity;
    // Until the hanging attempt times out (1 s after it was sent).
    while (Date.now() - sentAt < 850) {
      const rows = await db.query<Array<{ left: number | null }>>(
        `SELECT extract(epoch FROM lease_until - now()) * 1000 AS left
         FROM delivery.deliveries WHERE id = ANY ($1::text[]) AND lease_until > now()`,
        [waiting],
      );
      for (const row of rows) least = Math.min(least, Number(row.left));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(receiver.held).toHaveLength(1);
    // Given back 0.35 s after its claim at the latest (1.5 - 1 - 0.15 margin), a pump round
    // late at most: its lease never falls far below the attempt timeout.
    expect(least).toBeGreaterThan(1_000 - 100);
  }, 15_000);

  it('gives back only its own leases: a newer lease on the row is left alone', async () => {
    const { ids, stopping } = await oneHangingThreeWaiting('/newer-lease');
    const inFlight = receiver.received.find((r) => r.path === '/newer-lease')!.delivery;
    const waiting = ids.filter((each) => each !== inFlight);
    // As another worker's lease would be, had ours run out and that worker claimed the rows.
    await db.query(
      `UPDATE delivery.deliveries SET lease_until = now() + interval '1 hour'
       WHERE id = ANY ($1::text[])`,
      [waiting],
    );
    schedulers.splice(schedulers.indexOf(stopping), 1);
    for (const res of receiver.held.splice(0)) res.destroy();
    await stopping.beforeApplicationShutdown();
    const rows = await states(waiting);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.leased && row.attempts === 0)).toBe(true);
  }, 15_000);

  it('records an attempt only under its own lease: one taken over by another worker is left alone', async () => {
    const id = await endpoint('/taken-over');
    const [delivery = ''] = await deliveries(id, 1);
    const leases = new DeliveryLeases(db);
    const [claimed] = await leases.claim({
      limit: 1,
      leaseMs: 1_000,
      perEndpoint: 1,
      perWorkspace: 1,
      busy: [],
      full: [],
      busyWorkspaces: [],
      fullWorkspaces: [],
      held: [],
    });
    expect(claimed?.id).toBe(delivery);
    // Our lease ran out (Postgres away longer than it) and another worker claimed the row.
    await db.query(
      `UPDATE delivery.deliveries SET lease_until = now() + interval '1 hour' WHERE id = $1`,
      [delivery],
    );
    const result = {
      startedAt: new Date(),
      durationMs: 5,
      statusCode: 500,
      error: null,
      responseBody: '',
      requestHeaders: {},
      responseHeaders: {},
    };
    await leases.record([
      {
        deliveryId: delivery,
        lease: claimed!.lease,
        attempt: 1,
        chain: 1,
        status: 'pending',
        waitMs: 300,
        result,
      },
    ]);
    const [row] = await states([delivery]);
    // Not made due under the other worker, its lease kept, nothing logged twice.
    expect(row).toMatchObject({ status: 'pending', attempts: 0, leased: true, logged: 0 });
    // Under our own lease the same record goes in.
    await db.query(`UPDATE delivery.deliveries SET lease_until = $2 WHERE id = $1`, [
      delivery,
      claimed!.lease,
    ]);
    await leases.record([
      {
        deliveryId: delivery,
        lease: claimed!.lease,
        attempt: 1,
        chain: 1,
        status: 'pending',
        waitMs: 300,
        result,
      },
    ]);
    expect((await states([delivery]))[0]).toMatchObject({ attempts: 1, logged: 1, leased: false });
  });

  it('retries recording a batch as a whole while Postgres is unreachable, not row by row', async () => {
    const id = await endpoint('/record-later');
    const ids = await deliveries(id, 5);
    receiver.hang = true;
    let down = true;
    /** Rows per recording statement tried while Postgres is down. */
    const tried: number[] = [];
    const flaky = {
      query: (sql: string, params?: unknown[]) => {
        if (down && sql.includes('INSERT INTO delivery.delivery_attempts')) {
          tried.push((params![0] as string[]).length);
          return Promise.reject(
            Object.assign(new Error('Connection terminated'), { code: '08006' }),
          );
        }
        return db.query(sql, params);
      },
    } as unknown as DataSource;
    scheduler({ DELIVERY_PER_ENDPOINT: '5', DELIVERY_PREFETCH: '0' }, flaky);
    await eventually(() => {
      if (receiver.held.length < 5) throw new Error('not all in flight');
      return Promise.resolve();
    });
    for (const res of receiver.held.splice(0)) res.writeHead(200).end('ok');
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    // Backing off 0.2, 0.4, 0.8 s: a few statements, each (after the first round) with all.
    expect(tried.length).toBeGreaterThanOrEqual(2);
    expect(tried.length).toBeLessThanOrEqual(5);
    expect(tried.slice(-2)).toEqual([5, 5]);
    down = false;
    const rows = await eventually(
      async () => {
        const now = await states(ids);
        if (now.some((row) => row.status !== 'delivered')) throw new Error('not recorded');
        return now;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    expect(rows.every((row) => row.attempts === 1 && row.logged === 1 && !row.leased)).toBe(true);
  }, 15_000);

  it('records the rest of a batch when Postgres refuses one row for its data', async () => {
    const id = await endpoint('/refused-row');
    const ids = await deliveries(id, 4);
    const poison = ids[2]!;
    receiver.hang = true;
    const statements: string[][] = [];
    const refusing = {
      query: (sql: string, params?: unknown[]) => {
        if (sql.includes('INSERT INTO delivery.delivery_attempts')) {
          const batch = params![0] as string[];
          statements.push(batch);
          if (batch.includes(poison)) {
            const error = new Error('invalid byte sequence for encoding "UTF8": 0x00');
            return Promise.reject(Object.assign(error, { code: '22021' }));
          }
        }
        return db.query(sql, params);
      },
    } as unknown as DataSource;
    const warnings: string[] = [];
    const warn = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((message: unknown) => void warnings.push(String(message)));
    try {
      scheduler({ DELIVERY_PER_ENDPOINT: '4', DELIVERY_PREFETCH: '0' }, refusing);
      await eventually(() => {
        if (receiver.held.length < 4) throw new Error('not all in flight');
        return Promise.resolve();
      });
      for (const res of receiver.held.splice(0)) res.writeHead(200).end('ok');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      warn.mockRestore();
    }
    expect(warnings).toEqual([expect.stringContaining(`attempt of ${poison} not recorded`)]);
    const rows = await eventually(
      async () => {
        const now = await states(ids.filter((each) => each !== poison));
        if (now.some((row) => row.status !== 'delivered')) throw new Error('not recorded');
        return now;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    expect(rows.every((row) => row.attempts === 1 && row.logged === 1)).toBe(true);
    const [refused] = await states([poison]);
    expect(refused).toMatchObject({ status: 'pending', attempts: 0, logged: 0 });
    // Tried alone once it was singled out, and not over and over.
    expect(statements.filter((batch) => batch.length === 1 && batch[0] === poison)).toHaveLength(1);
  }, 15_000);
});
