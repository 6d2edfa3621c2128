import {
  ASSET_CSV_COLUMNS,
  PERSON_CSV_COLUMNS,
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
  type AssetDetail,
  type EventEnvelope,
  type EventFeedPage,
} from '@custodian/contracts';
import { eventually } from '@custodian/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
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
    // Exports in chunks of 5 rows: a few rows walk many chunks.
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      DELIVERY_INTERVAL_MS: '50',
      EXPORT_CHUNK_ROWS: '5',
    },
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
  async function follow(
    after?: string,
    who: Tenant = tenant,
  ): Promise<{ events: EventEnvelope[]; next: string }> {
    const events: EventEnvelope[] = [];
    let cursor = after;
    for (;;) {
      const query = new URLSearchParams({ limit: '50', ...(cursor ? { after: cursor } : {}) });
      const res = await who.get<EventFeedPage>(`/events?${query}`);
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

  describe("upserts by the client's identifier (PUT /assets/by-serial, /assets/by-tag)", () => {
    it('creates (201) then changes (200) the asset a serial number names, with their events', async () => {
      const cursor = (await tenant.get<EventFeedPage>('/events?after=now')).body.next;
      const serial = `SN/${Date.now()}`;
      const path = `/assets/by-serial/${encodeURIComponent(serial)}`;
      const created = await tenant.request<AssetDetail>(path, {
        method: 'PUT',
        body: { name: 'Forklift', brand: 'Toyota' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Forklift',
        serial_number: serial,
        brand: 'Toyota',
      });
      const changed = await tenant.request<AssetDetail>(path, {
        method: 'PUT',
        body: { status: 'maintenance' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        id: created.body.id,
        name: 'Forklift',
        status: 'maintenance',
        brand: 'Toyota',
      });
      const events = await eventually(
        async () => {
          const read = await follow(cursor);
          const mine = read.events.filter(
            (one) => (one.data as { id?: string }).id === created.body.id,
          );
          if (mine.length < 2) throw new Error(`${mine.length} events so far`);
          return mine;
        },
        { timeoutMs: 15_000, intervalMs: 50 },
      );
      expect(events.map((one) => one.event)).toEqual(['asset.created', 'asset.updated']);
    });

    it('makes one asset of concurrent upserts of the same new serial number', async () => {
      const serial = `RACE-${Date.now()}`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          tenant.request<AssetDetail>(`/assets/by-serial/${serial}`, {
            method: 'PUT',
            body: { name: 'Pallet jack', model: `M${i}` },
          }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(answers.map((res) => res.body.id)).size).toBe(1);
      const found = await tenant.get<{ total: number }>(`/assets?page=1&search=${serial}`);
      expect(found.body.total).toBe(1);
    });

    it('upserts by tag, with preconditions and clear refusals', async () => {
      const tag = `TAG-${Date.now()}`;
      const put = (body: unknown, headers: Record<string, string> = {}) =>
        tenant.request<AssetDetail & { message: string }>(`/assets/by-tag/${tag}`, {
          method: 'PUT',
          body,
          headers,
        });
      const nameless = await put({ brand: 'Hilti' });
      expect(nameless.status).toBe(400);
      expect(nameless.body.message).toBe(
        `name is required to create an asset (no asset has the asset tag ${tag})`,
      );
      expect((await put({ name: 'Nailer' }, { 'if-match': '"abc"' })).status).toBe(412);
      const created = await put({ name: 'Nailer' }, { 'if-none-match': '*' });
      expect(created.status).toBe(201);
      expect(created.body.asset_tag).toBe(tag);
      const again = await put({ name: 'Nailer' }, { 'if-none-match': '*' });
      expect(again.status).toBe(412);
      expect(again.body.message).toMatch(new RegExp(`^an asset has the asset tag ${tag} already`));
      const mismatch = await put({ asset_tag: 'OTHER' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.message).toMatch(
        /^asset_tag in the body must be the asset tag in the path/,
      );
      const etag = created.headers.get('etag') ?? '';
      expect((await put({ model: 'N1' }, { 'if-match': etag })).status).toBe(200);
      expect((await put({ model: 'N2' }, { 'if-match': etag })).status).toBe(412);
    });
  });

  describe('CSV exports (GET /assets/export, /people/export)', () => {
    it('streams every matching asset, chunk after chunk, in the columns asked for', async () => {
      const csv = await stack.tenant('pro', 'write');
      await stack.registerAdminCall(RegisterAdminPatterns.customFieldCreate, {
        workspace: csv.workspace.id,
        key: 'cost_center',
        label: 'Cost center',
        type: 'text',
      });
      const names = [
        '=HYPERLINK("http://evil.example")',
        'Comma, "quoted"',
        'Ünïcode ✓',
        'Line\nbreak',
        ...Array.from({ length: 8 }, (_, i) => `Plain ${i}`),
      ];
      for (const name of names) {
        const res = await csv.post('/assets', { name, custom_fields: { cost_center: 'IT' } });
        expect(res.status).toBe(201);
      }
      const retired = await csv.post<AssetDetail>('/assets', { name: 'Old', status: 'retired' });
      expect(retired.status).toBe(201);

      const res = await csv.get<string>(
        '/assets/export?status=active&columns=name,asset_tag,status,cost_center',
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="assets-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.text.startsWith('name,asset_tag,status,cost_center\r\n')).toBe(true);
      // The bytes start with UTF-8's byte-order mark (fetch's text() takes it off).
      const raw = await fetch(`${stack.baseUrl}/assets/export?columns=name`, {
        headers: { authorization: `Bearer ${csv.key.key}` },
      });
      expect([...Buffer.from(await raw.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = parse<Record<string, string>>(res.text, { bom: true, columns: true });
      // 12 active rows in chunks of 5: three chunks, in the order they were created.
      expect(rows.map((row) => row.name)).toEqual([`'${names[0]}`, ...names.slice(1)]);
      expect(rows.every((row) => row.status === 'active' && row.cost_center === 'IT')).toBe(true);
      expect(new Set(rows.map((row) => row.asset_tag)).size).toBe(12);

      const all = parse<Record<string, string>>((await csv.get<string>('/assets/export')).text, {
        bom: true,
        columns: true,
      });
      expect(all).toHaveLength(13);
      expect(Object.keys(all[0]!)).toEqual([...ASSET_CSV_COLUMNS, 'cost_center']);
      expect(all.at(-1)).toMatchObject({ id: retired.body.id, status: 'retired' });
    });

    it('exports people, and names what is wrong with the query', async () => {
      const csv = await stack.tenant('pro', 'write');
      for (const full_name of ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara']) {
        expect(
          (await csv.post('/people', { full_name, email: `${full_name}@x.example` })).status,
        ).toBe(201);
      }
      const people = parse<Record<string, string>>((await csv.get<string>('/people/export')).text, {
        bom: true,
        columns: true,
      });
      expect(people.map((row) => row.full_name)).toEqual([
        'Ada',
        'Grace',
        'Linus',
        'Margaret',
        'Ken',
        'Barbara',
      ]);
      expect(Object.keys(people[0]!)).toEqual([...PERSON_CSV_COLUMNS]);

      const unknown = await csv.get<{ message: string }>('/assets/export?columns=name,colour');
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/^columns names an unknown column: colour/);
      const paged = await csv.get<{ message: string }>('/people/export?page=2');
      expect(paged.status).toBe(400);
      expect(paged.body.message).toBe(
        'page is not a parameter of an export: it streams every match, oldest first',
      );
    });
  });

  describe('CSV imports (POST /imports)', () => {
    type Imported = {
      id: string;
      status: string;
      rows: number;
      plan: { create: number; update: number; refuse: number };
      results: { created: number; updated: number; unchanged: number; refused: number };
      progress: { done: number; total: number } | null;
    };

    function upload(who: Tenant, csv: string, query: string) {
      return who.request<Imported & { message: string }>(`/imports?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: csv,
      });
    }

    function until(who: Tenant, id: string, status: string) {
      return eventually(
        async () => {
          const res = await who.get<Imported>(`/imports/${id}`);
          if (res.body.status !== status) throw new Error(`still ${res.body.status}`);
          return res.body;
        },
        { timeoutMs: 20_000, intervalMs: 50 },
      );
    }

    it('plans every row, waits for the go, then creates, updates and refuses with reasons', async () => {
      const own = await stack.tenant('pro', 'write');
      await stack.registerAdminCall(RegisterAdminPatterns.customFieldCreate, {
        workspace: own.workspace.id,
        key: 'cost_center',
        label: 'Cost center',
        type: 'text',
      });
      const existing = await own.post<AssetDetail>('/assets', {
        name: 'Old drill',
        asset_tag: 'IMP-1',
      });
      // The cursor past the existing asset's own asset.created (its event reaches the feed a
      // moment after its write).
      const { next: cursor } = await eventually(
        async () => {
          const read = await follow(undefined, own);
          if (!read.events.some((one) => (one.data as { id?: string }).id === existing.body.id)) {
            throw new Error('the existing asset is not in the feed yet');
          }
          return read;
        },
        { timeoutMs: 15_000, intervalMs: 50 },
      );
      const csv = [
        'name,asset_tag,serial_number,status,brand,Cost center',
        'Drill,IMP-1,,maintenance,Bosch,IT',
        'Saw,IMP-2,SN-2,active,Makita,Ops',
        'Bad,IMP-3,,exploded,,',
        'Dup,IMP-2,,,,',
        '"Comma, name",,SN-5,,,',
      ].join('\r\n');
      const res = await upload(own, csv, 'type=assets&filename=inventory.csv');
      expect(res.status).toBe(202);
      expect(res.headers.get('location')).toBe(`/api/v1/imports/${res.body.id}`);
      expect(res.body).toMatchObject({ status: 'planning', rows: 5 });

      const planned = await until(own, res.body.id, 'planned');
      expect(planned.plan).toEqual({ create: 2, update: 1, refuse: 2 });
      const refused = await own.get<{ data: Array<{ row: number; message: string }> }>(
        `/imports/${res.body.id}/rows?plan=refuse`,
      );
      expect(refused.body.data.map((row) => row.row)).toEqual([3, 4]);
      expect(refused.body.data[0]?.message).toMatch(/^status must be one of active, /);
      expect(refused.body.data[1]?.message).toBe(
        'asset tag IMP-2 is on row 2 of this file already: one row per asset',
      );
      // Nothing is written by the dry run.
      expect((await own.get<AssetDetail>(`/assets/${existing.body.id}`)).body.brand).toBeNull();

      expect((await own.request(`/imports/${res.body.id}/start`, { method: 'POST' })).status).toBe(
        202,
      );
      const done = await until(own, res.body.id, 'completed');
      expect(done.results).toEqual({ created: 2, updated: 1, unchanged: 0, refused: 2 });
      const updated = (await own.get<AssetDetail>(`/assets/${existing.body.id}`)).body;
      expect(updated).toMatchObject({
        name: 'Drill',
        status: 'maintenance',
        brand: 'Bosch',
        custom_fields: { cost_center: 'IT' },
      });
      // Their events, as the API's writes fire them, reach the feed a moment later.
      const events = await eventually(
        async () => {
          const read = (await follow(cursor, own)).events.filter((one) =>
            one.event.startsWith('asset.'),
          );
          if (read.length < 3) throw new Error(`${read.length} events so far`);
          return read;
        },
        { timeoutMs: 15_000, intervalMs: 50 },
      );
      expect(events.map((one) => one.event).sort()).toEqual([
        'asset.created',
        'asset.created',
        'asset.updated',
      ]);

      // The same file again, at once: what it says is there already, so nothing changes.
      const again = await upload(own, csv, 'type=assets&dry_run=false');
      expect(again.status).toBe(202);
      const second = await until(own, again.body.id, 'completed');
      expect(second.results).toEqual({ created: 0, updated: 0, unchanged: 3, refused: 2 });
    });

    it("refuses rows past the plan's limit by name, and what is no CSV import", async () => {
      const own = await stack.tenant('pro', 'write');
      await stack.adminCall(GatewayAdminPatterns.workspaceLimits, {
        workspace: own.workspace.id,
        people: '2',
      });
      const csv =
        'full_name,email\nAda,ada@x.example\nGrace,grace@x.example\nLinus,linus@x.example\n';
      const res = await upload(own, csv, 'type=people&dry_run=false');
      expect(res.status).toBe(202);
      const done = await until(own, res.body.id, 'completed');
      expect(done.results).toMatchObject({ created: 2, refused: 1 });
      const rows = await own.get<{ data: Array<{ row: number; result: string; message: string }> }>(
        `/imports/${res.body.id}/rows?result=refused`,
      );
      expect(rows.body.data.map(({ row, message }) => ({ row, message }))).toEqual([
        { row: 3, message: 'People limit of 2 reached on the pro plan' },
      ]);

      const unknown = await upload(own, 'full_name,colour\nAda,red\n', 'type=people');
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/^column colour is neither a field of people/);
      const broken = await upload(own, 'full_name\n"Ada\n', 'type=people');
      expect(broken.status).toBe(400);
      expect(broken.body.message).toMatch(/^the file is not valid CSV/);
      const json = await own.post<{ message: string }>('/imports?type=people', {
        full_name: 'Ada',
      });
      expect(json.status).toBe(415);
      expect(json.body.message).toBe('Content-Type must be text/csv');
      const csvElsewhere = await own.request<{ message: string }>('/people', {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: 'full_name\nAda\n',
      });
      expect(csvElsewhere.status).toBe(415);
    });
  });
});
