import {
  WorkerAdminPatterns,
  type AssetDetail,
  type EventEnvelope,
  type EventFeedPage,
} from '@custodian/contracts';
import { eventually } from '@custodian/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { TestStack, type Tenant } from './support/stack';

/**
 * A receiver that can be stopped (its port closed: connections refused) and started again on
 * the same port, recording the envelope id of every delivery it answered 200.
 */
class StoppableReceiver {
  readonly received: string[] = [];
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push(
          (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id,
        );
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

describe('the change feed (e2e: two registers, two workers, a receiver that goes away)', () => {
  const stack = new TestStack({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DELIVERY_INTERVAL_MS: '50' },
  });
  const receiver = new StoppableReceiver();
  let tenant: Tenant;
  let db: Client;

  beforeAll(async () => {
    await Promise.all([stack.start(), receiver.start()]);
    // A second register and a second worker: writes commit on either register, in any order,
    // and either worker appends them to the feed.
    await Promise.all([stack.startExtra('register'), stack.startExtraWorker()]);
    tenant = await stack.tenant('pro', 'write');
    await stack.workerAdminCall(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: `http://127.0.0.1:${receiver.port}/hook`,
      events: '*',
    });
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
  }, 90_000);

  afterAll(async () => {
    await db?.end();
    await stack.stop();
    await receiver.stop();
  });

  /** Pages from `after` until has_more is false: the events read and the cursor to keep. */
  async function follow(after?: string): Promise<{ events: EventEnvelope[]; next: string }> {
    const events: EventEnvelope[] = [];
    let cursor = after;
    for (;;) {
      const query = new URLSearchParams({ limit: '50', ...(cursor ? { after: cursor } : {}) });
      const res = await tenant.get<EventFeedPage>(`/events?${query}`);
      expect(res.status).toBe(200);
      events.push(...res.body.data);
      cursor = res.body.next;
      if (!res.body.has_more) return { events, next: res.body.next };
    }
  }

  /** Every event the workspace's writes stored, from the apps' outboxes (the truth). */
  async function stored(): Promise<string[]> {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM register.outbox WHERE workspace_id = $1 AND event NOT LIKE 'internal.%'
       UNION ALL
       SELECT id FROM gateway.outbox WHERE workspace_id = $1 AND event NOT LIKE 'internal.%'`,
      [tenant.workspace.id],
    );
    return rows.map((row) => row.id);
  }

  async function createAssets(count: number, prefix: string): Promise<AssetDetail[]> {
    const created: AssetDetail[] = [];
    for (let i = 0; i < count; i += 8) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(8, count - i) }, (_, j) =>
          tenant.post<AssetDetail>('/assets', { name: `${prefix} ${i + j}` }),
        ),
      );
      for (const res of batch) {
        expect(res.status).toBe(201);
        created.push(res.body);
      }
    }
    return created;
  }

  it('replays from the last cursor every event exactly once, writes committing out of order', async () => {
    // What happened before: read to the end; the cursor is where the client stands.
    const before = await follow();
    const first = await createAssets(24, 'Drill');
    const seen = await eventually(
      async () => {
        const read = await follow(before.next);
        if (read.events.length < first.length) throw new Error(`${read.events.length} so far`);
        return read;
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    const lastCursor = seen.next;

    // The receiver goes away for a few seconds while writes keep coming.
    await receiver.stop();
    const downAt = Date.now();
    // One write is held: its transaction starts (its event's created_at is now) and waits on
    // a row this test locks, while later writes commit before it on the other register.
    const held = first[0]!;
    const lock = new Client({ connectionString: stack.databaseUrl });
    // A failing test drops the database under it: that is no second failure.
    lock.on('error', () => undefined);
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT id FROM register.assets WHERE id = $1 FOR UPDATE', [held.id]);
    const heldPatch = tenant.patch<AssetDetail>(`/assets/${held.id}`, { name: 'Held drill' });
    await sleep(200);
    const during = await createAssets(24, 'Saw');
    for (const asset of during.slice(0, 8)) {
      expect((await tenant.patch(`/assets/${asset.id}`, { status: 'maintenance' })).status).toBe(
        200,
      );
    }
    // A follower reads now: past every committed event, never past the held one.
    const mid = await eventually(
      async () => {
        const read = await follow(lastCursor);
        if (read.events.length < during.length + 8) throw new Error(`${read.events.length} so far`);
        return read;
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    await lock.query('COMMIT');
    await lock.end();
    expect((await heldPatch).status).toBe(200);
    const heldEvent = await eventually(
      async () => {
        const read = await follow(mid.next);
        const found = read.events.find(
          (one) => one.event === 'asset.updated' && (one.data as { id?: string }).id === held.id,
        );
        if (!found) throw new Error('the held write is not in the feed yet');
        return found;
      },
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    // It happened before events the follower had already read: created_at orders it earlier.
    const lastRead = mid.events[mid.events.length - 1]!;
    expect(heldEvent.created_at < lastRead.created_at).toBe(true);

    await sleep(Math.max(0, 2_500 - (Date.now() - downAt)));
    await receiver.start();
    await createAssets(8, 'Ladder');

    // The replay from the last cursor, once every write's event is in the feed: with what was
    // read before, every stored event exactly once.
    const truth = await stored();
    const replay = await eventually(
      async () => {
        const read = await follow(lastCursor);
        const all = [...before.events, ...seen.events, ...read.events].map((one) => one.id);
        if (all.length < truth.length) throw new Error(`${all.length} of ${truth.length}`);
        return { read, all };
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    expect(replay.all).toHaveLength(new Set(replay.all).size);
    expect(new Set(replay.all)).toEqual(new Set(await stored()));
    expect(replay.read.events.map((one) => one.id)).toEqual(expect.arrayContaining([heldEvent.id]));
    // The receiver did miss some while it was away: the feed is what brought them back.
    const missed = replay.all.filter((id) => !receiver.received.includes(id));
    expect(missed.length).toBeGreaterThan(0);
  }, 90_000);

  it('answers 400 naming the parameter, and a read key may follow the feed', async () => {
    const bad = await tenant.get<{ statusCode: number; message: string }>('/events?limit=5000');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^limit must be/);
    const types = await tenant.get<{ message: string }>('/events?types=asset.exploded');
    expect(types.status).toBe(400);
    expect(types.body.message).toMatch(/types names an unknown event key: asset\.exploded/);

    const reader = await stack.createKey(tenant.workspace.id, 'read');
    const res = await stack.request<EventFeedPage>('/events?after=now', {
      headers: { authorization: `Bearer ${reader.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.has_more).toBe(false);
    expect(typeof res.body.next).toBe('string');
  });

  it('lists the assets and people changed since an instant, oldest change first', async () => {
    const other = await stack.tenant('pro', 'write');
    const [a, b, c] = await Promise.all(
      ['Tape', 'Level', 'Clamp'].map(async (name) => {
        const res = await other.post<AssetDetail>('/assets', { name });
        expect(res.status).toBe(201);
        return res.body;
      }),
    );
    const person = await other.post<{ id: string; updated_at: string }>('/people', {
      full_name: 'Grace',
    });
    expect(person.status).toBe(201);
    const [{ since }] = (await db.query<{ since: Date }>('SELECT now() AS since')).rows as [
      { since: Date },
    ];
    const changed = [c!, a!];
    for (const asset of changed) {
      expect((await other.patch(`/assets/${asset.id}`, { brand: 'Stanley' })).status).toBe(200);
    }
    const page = await other.get<{
      data: Array<{ id: string; updated_at: string }>;
      total: number;
    }>(`/assets?page=1&updated_since=${encodeURIComponent(since.toISOString())}`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((row) => row.id)).toEqual(changed.map((asset) => asset.id));
    expect(page.body.total).toBe(2);
    expect(page.body.data[0]!.updated_at <= page.body.data[1]!.updated_at).toBe(true);
    // The bare array too, and sort may only say updated_at.
    const bare = await other.get<Array<{ id: string }>>(
      `/assets?updated_since=${encodeURIComponent(since.toISOString())}&sort=updated_at`,
    );
    expect(bare.body.map((row) => row.id)).toEqual(changed.map((asset) => asset.id));
    const sorted = await other.get<{ message: string }>(
      `/assets?updated_since=${encodeURIComponent(since.toISOString())}&sort=name`,
    );
    expect(sorted.status).toBe(400);
    expect(sorted.body.message).toBe('sort must be updated_at, or left out, with updated_since');
    const bad = await other.get<{ message: string }>('/people?updated_since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^updated_since must be a date and time with its offset/);

    expect(
      (
        await other.get<{ data: unknown[] }>(
          `/people?page=1&updated_since=${encodeURIComponent(since.toISOString())}`,
        )
      ).body.data,
    ).toEqual([]);
    expect(
      (await other.patch(`/people/${person.body.id}`, { department: 'Workshop' })).status,
    ).toBe(200);
    const people = await other.get<{ data: Array<{ id: string }> }>(
      `/people?page=1&updated_since=${encodeURIComponent(since.toISOString())}`,
    );
    expect(people.body.data.map((row) => row.id)).toEqual([person.body.id]);
    expect(b).toBeDefined();
  });

  describe('conditional writes (ETag, If-None-Match, If-Match)', () => {
    it('tags a record, answers 304 for the copy held, and refuses a stale If-Match with 412', async () => {
      const created = await tenant.post<AssetDetail>('/assets', { name: 'Compressor' });
      expect(created.status).toBe(201);
      const read = await tenant.get<AssetDetail>(`/assets/${created.body.id}`);
      const etag = read.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(created.headers.get('etag')).toBe(etag);

      const unchanged = await tenant.request(`/assets/${created.body.id}`, {
        headers: { 'if-none-match': etag },
      });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
      expect(unchanged.headers.get('etag')).toBe(etag);

      // The first writer holds the current tag: its change goes through, with a new tag.
      const first = await tenant.request<AssetDetail>(`/assets/${created.body.id}`, {
        method: 'PATCH',
        headers: { 'if-match': etag },
        body: { brand: 'Makita' },
      });
      expect(first.status).toBe(200);
      const newer = first.headers.get('etag') ?? '';
      expect(newer).not.toBe(etag);
      expect(
        (await tenant.request(`/assets/${created.body.id}`, { headers: { 'if-none-match': etag } }))
          .status,
      ).toBe(200);

      // The second writer read the same version: refused, and nothing of it is written.
      const second = await tenant.request<{ statusCode: number; error: string; message: string }>(
        `/assets/${created.body.id}`,
        { method: 'PATCH', headers: { 'if-match': etag }, body: { brand: 'Bosch', model: 'X' } },
      );
      expect(second.status).toBe(412);
      expect(second.body.error).toBe('Precondition Failed');
      expect(second.body.message).toMatch(
        new RegExp(`^Asset ${created.body.id} changed since you read it .*it is now ${newer}`),
      );
      const now = await tenant.get<AssetDetail>(`/assets/${created.body.id}`);
      expect(now.body.brand).toBe('Makita');
      expect(now.body.model).toBeNull();

      const weak = await tenant.request(`/assets/${created.body.id}`, {
        method: 'PATCH',
        headers: { 'if-match': `W/${newer}` },
        body: { model: 'Y' },
      });
      expect(weak.status).toBe(412);
      const any = await tenant.request(`/assets/${created.body.id}`, {
        method: 'PATCH',
        headers: { 'if-match': '*' },
        body: { model: 'Z' },
      });
      expect(any.status).toBe(200);
      const malformed = await tenant.request<{ message: string }>(`/assets/${created.body.id}`, {
        method: 'PATCH',
        headers: { 'if-match': 'abc' },
        body: { model: 'Q' },
      });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toMatch(/^If-Match must be \* or entity tags/);
    });

    it('lets exactly one of two writers holding the same version through', async () => {
      const person = await tenant.post<{ id: string }>('/people', { full_name: 'Linus' });
      const etag = (await tenant.get(`/people/${person.body.id}`)).headers.get('etag') ?? '';
      const answers = await Promise.all(
        ['Ops', 'Finance'].map((department) =>
          tenant.request(`/people/${person.body.id}`, {
            method: 'PATCH',
            headers: { 'if-match': etag },
            body: { department },
          }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    });
  });
});
