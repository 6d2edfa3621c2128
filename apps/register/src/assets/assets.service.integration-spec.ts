import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  type AssetSummary,
  type CallerContext,
  CreateAssetInput,
  type EffectiveLimits,
  type RawQuery,
  UNPAGED_MAX_BYTES,
  UpdateAssetInput,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  type ClientBody,
  testCaller,
  type MigratedDatabase,
  pageOf,
  unpagedArray,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { parseAssetListQuery } from './asset-list-query';
import { AssetsService } from './assets.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/** The register's asset SQL on a fresh, migrated database: no broker, no gateway. */

let store: MigratedDatabase;
let db: DataSource;
let service: AssetsService;

/** Events go to register.outbox, as the app's OutboxModule writes them. */
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 10));
  db = store.db;
  service = new AssetsService(
    new ReadTransactions(db),
    new WriteTransactions(db),
    writer,
    activity,
  );
}, 30_000);

afterAll(() => store?.close());

/**
 * The one place this file calls the service: a new workspace's caller (pro plan unless the
 * limits say otherwise), bodies and queries as the RPC controllers hand them over (through the validation pipe and the list-query parser).
 */
function workspace(options: { workspaceId?: string; limits?: Partial<EffectiveLimits> } = {}) {
  const caller: CallerContext = testCaller(options);
  return {
    caller,
    id: caller.workspaceId,
    create: async (body: ClientBody<CreateAssetInput>) =>
      service.create(caller, await received(CreateAssetInput, body)),
    update: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      service.update(caller, id, await received(UpdateAssetInput, body)),
    get: (id: string) => service.get(caller, id),
    list: async (query: RawQuery = {}) => service.list(caller, parseAssetListQuery(query)),
    page: async (query: RawQuery) => pageOf(await service.list(caller, parseAssetListQuery(query))),
    all: async (query: RawQuery = {}) =>
      unpagedArray(await service.list(caller, parseAssetListQuery(query))),
  };
}

interface OutboxRow {
  event: string;
  data: Record<string, unknown>;
  created_at: Date;
}

function outbox(workspaceId: string): Promise<OutboxRow[]> {
  return db.query(
    `SELECT event, data, created_at FROM register.outbox WHERE workspace_id = $1
     ORDER BY created_at, id`,
    [workspaceId],
  );
}

async function counter(workspaceId: string) {
  const rows = await db.query<Array<{ asset_count: number; asset_tag_seq: string }>>(
    `SELECT asset_count, asset_tag_seq FROM register.workspace_counters WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0] ?? null;
}

async function count(table: string, workspaceId: string): Promise<number> {
  const rows = await db.query<Array<{ n: number }>>(
    `SELECT count(*)::int AS n FROM register.${table} WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0]!.n;
}

/** Everything a failed write must leave as it was. */
async function snapshot(workspaceId: string) {
  return {
    assets: await db.query<unknown[]>(
      `SELECT * FROM register.assets WHERE workspace_id = $1 ORDER BY id`,
      [workspaceId],
    ),
    outbox: await count('outbox', workspaceId),
    categories: await count('categories', workspaceId),
    locations: await count('locations', workspaceId),
    counter: await counter(workspaceId),
  };
}

const names = (assets: AssetSummary[]) => assets.map((asset) => asset.name);

describe('asset tags', () => {
  it('generates AT-000001, AT-000002... per workspace and keeps the sequence in the counter', async () => {
    const first = workspace();
    const second = workspace();
    const tags = [];
    for (const name of ['One', 'Two', 'Three']) tags.push((await first.create({ name })).asset_tag);
    expect(tags).toEqual(['AT-000001', 'AT-000002', 'AT-000003']);
    expect((await second.create({ name: 'Elsewhere' })).asset_tag).toBe('AT-000001');
    expect(await counter(first.id)).toEqual({ asset_count: 3, asset_tag_seq: '3' });
    expect(await counter(second.id)).toEqual({ asset_count: 1, asset_tag_seq: '1' });
  });

  it('skips a tag taken by hand and stores hand tags trimmed', async () => {
    const ws = workspace();
    expect((await ws.create({ name: 'By hand', asset_tag: '  AT-000002 ' })).asset_tag).toBe(
      'AT-000002',
    );
    expect((await ws.create({ name: 'A' })).asset_tag).toBe('AT-000001');
    expect((await ws.create({ name: 'B' })).asset_tag).toBe('AT-000003');
    expect(await counter(ws.id)).toEqual({ asset_count: 3, asset_tag_seq: '3' });
  });

  it('refuses a duplicate tag with conflict and writes nothing', async () => {
    const ws = workspace();
    await ws.create({ name: 'Original', asset_tag: 'DUP-1' });
    const before = await snapshot(ws.id);
    const refused = await domainRejection(
      ws.create({ name: 'Copy', asset_tag: ' DUP-1 ', category: 'New category', location: 'HQ' }),
    );
    expect(refused).toMatchObject({
      code: 'conflict',
      message: 'asset_tag DUP-1 is already used by another asset',
    });
    expect(await snapshot(ws.id)).toEqual(before);
    // The tag is the workspace's own: another workspace may use it.
    expect((await workspace().create({ name: 'Other', asset_tag: 'DUP-1' })).asset_tag).toBe(
      'DUP-1',
    );
  });

  it('gives concurrent creates distinct tags and an exact counter', async () => {
    const ws = workspace();
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => ws.create({ name: `Parallel ${i}` })),
    );
    expect(created.map((asset) => asset.asset_tag).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `AT-00000${i + 1}`),
    );
    expect(await counter(ws.id)).toEqual({ asset_count: 8, asset_tag_seq: '8' });
    const events = await outbox(ws.id);
    expect(events.map((row) => row.event)).toEqual(Array(8).fill('asset.created'));
  });
});

describe('asset limit', () => {
  it('refuses the create past the limit, naming limit and plan, with no row and no event', async () => {
    const ws = workspace({ limits: { assets: 2 } });
    await ws.create({ name: 'One' });
    await ws.create({ name: 'Two' });
    const before = await snapshot(ws.id);
    const refused = await domainRejection(ws.create({ name: 'Three', category: 'Never' }));
    expect(refused).toMatchObject({
      code: 'limit_reached',
      message: 'Asset limit of 2 reached on the pro plan',
    });
    expect(await snapshot(ws.id)).toEqual(before);
    expect((await outbox(ws.id)).map((row) => row.event)).toEqual([
      'asset.created',
      'asset.created',
      'plan.limit_reached',
    ]);
  });

  it('writes plan.limit_reached once per crossing, in the create that used the last slot', async () => {
    const base = workspace({ limits: { assets: 1 } });
    await base.create({ name: 'Fills the plan' });
    await domainRejection(base.create({ name: 'Refused' }));
    // The workspace's limit is raised (an override): one more crossing, at the new value.
    const raised = workspace({ workspaceId: base.id, limits: { assets: 3 } });
    await raised.create({ name: 'Second' });
    await raised.create({ name: 'Third' });
    await workspace({ workspaceId: base.id, limits: { assets: null } }).create({ name: 'Free' });
    const crossings = (await outbox(base.id)).filter((row) => row.event === 'plan.limit_reached');
    expect(crossings.map((row) => row.data)).toEqual([
      { workspace: { id: base.id }, plan: 'pro', limit: 'assets', value: 1 },
      { workspace: { id: base.id }, plan: 'pro', limit: 'assets', value: 3 },
    ]);
    expect(await count('assets', base.id)).toBe(4);
  });

  it('lets exactly the limit through when creates race for the last slots, with one event', async () => {
    const ws = workspace({ limits: { assets: 3 } });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => ws.create({ name: `Racer ${i}` })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'limit_reached' });
    }
    expect(await counter(ws.id)).toEqual({ asset_count: 3, asset_tag_seq: '3' });
    expect(await count('assets', ws.id)).toBe(3);
    const events = (await outbox(ws.id)).map((row) => row.event);
    expect(events.filter((event) => event === 'plan.limit_reached')).toHaveLength(1);
    expect(events.filter((event) => event === 'asset.created')).toHaveLength(3);
  });
});

describe('list', () => {
  it('orders by created_at then id, and pages through every asset once', async () => {
    const ws = workspace();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await ws.create({ name: `Item ${i}` })).id);
    // Ties on created_at, and the newest ids given the oldest timestamp: the id breaks ties.
    for (const id of [...ids].reverse()) {
      const index = ids.indexOf(id);
      await db.query(`UPDATE register.assets SET created_at = $2 WHERE id = $1`, [
        id,
        index >= 5 ? '2025-01-01T00:00:00Z' : '2025-01-02T00:00:00Z',
      ]);
    }
    const expected = [ids[5], ids[6], ids[0], ids[1], ids[2], ids[3], ids[4]];
    expect((await ws.all()).map((asset) => asset.id)).toEqual(expected);
    // Filtered, the rows come from another plan than the (created_at, id) index, in heap order.
    expect((await ws.all({ search: 'item' })).map((asset) => asset.id)).toEqual(expected);
    expect((await ws.all({ status: 'active' })).map((asset) => asset.id)).toEqual(expected);

    const pages = [];
    for (const page of ['1', '2', '3', '4']) pages.push(await ws.page({ page, pageSize: '3' }));
    expect(pages.map((page) => page.data.length)).toEqual([3, 3, 1, 0]);
    expect(pages.flatMap((page) => page.data.map((asset) => asset.id))).toEqual(expected);
    expect(pages.map((page) => page.total)).toEqual([7, 7, 7, 7]);
    expect(pages[1]).toMatchObject({ page: 2, pageSize: 3 });
  });

  it('filters by status, with the filtered total', async () => {
    const ws = workspace();
    const assets = [];
    for (const name of ['A', 'B', 'C', 'D']) assets.push(await ws.create({ name }));
    await ws.update(assets[1]!.id, { status: 'retired' });
    await ws.create({ name: 'E', status: 'retired' });
    const retired = await ws.page({ status: 'retired', page: '1' });
    expect(names(retired.data)).toEqual(['B', 'E']);
    expect(retired.total).toBe(2);
    expect((await ws.page({ page: '1' })).total).toBe(5);
    expect(names(await ws.all({ status: 'active' }))).toEqual(['A', 'C', 'D']);
    expect(await ws.all({ status: 'stolen' })).toEqual([]);
  });

  it('searches name, tag, serial, brand, model and SKU case-insensitively', async () => {
    const ws = workspace();
    await ws.create({ name: 'MacBook Pro 14' });
    await ws.create({ name: 'Drill', serial_number: 'SN-Alpha-9' });
    await ws.create({ name: 'Monitor', brand: 'DELL' });
    await ws.create({ name: 'Chair', model: 'Aeron-B' });
    await ws.create({ name: 'Desk', sku: 'sku-77-desk' });
    await ws.create({ name: 'Tagged', asset_tag: 'LAB-42' });
    const search = async (text: string) => names(await ws.all({ search: text }));
    expect(await search('macbook')).toEqual(['MacBook Pro 14']);
    expect(await search('sn-ALPHA')).toEqual(['Drill']);
    expect(await search('  dell ')).toEqual(['Monitor']);
    expect(await search('aeron')).toEqual(['Chair']);
    expect(await search('SKU-77')).toEqual(['Desk']);
    expect(await search('lab-42')).toEqual(['Tagged']);
    expect(await search('at-00000')).toHaveLength(5);
    expect(await search('nothing like this')).toEqual([]);
    // Paged, the total counts the matches (Monitor and Chair's model "Aeron-B"), not the page.
    const paged = await ws.page({ search: 'ON', page: '1', pageSize: '1' });
    expect(names(paged.data)).toEqual(['Monitor']);
    expect(paged.total).toBe(2);
  });

  it('matches %, _ and \\ in a search as themselves', async () => {
    const ws = workspace();
    for (const name of [
      '50% off',
      '50 percent off',
      'file_name',
      'fileXname',
      'C:\\tmp',
      'C:tmp',
    ]) {
      await ws.create({ name });
    }
    const search = async (text: string) => names(await ws.all({ search: text }));
    expect(await search('50%')).toEqual(['50% off']);
    expect(await search('%')).toEqual(['50% off']);
    expect(await search('file_name')).toEqual(['file_name']);
    expect(await search('_')).toEqual(['file_name']);
    expect(await search('c:\\')).toEqual(['C:\\tmp']);
  });

  it('returns at most 10,000 assets without a page, the first by (created_at, id)', async () => {
    const ws = workspace();
    // One timestamp for all, written in descending id order, and fresh statistics: the planner
    // reads this big workspace in heap order, so only the id in ORDER BY gives the right 10,000.
    await db.query(
      `INSERT INTO register.assets (id, workspace_id, name, asset_tag, created_at)
       SELECT 'ast_cap_' || lpad(g::text, 5, '0'), $1, 'Bulk ' || g, 'CAP-' || g,
              '2025-01-01T00:00:00Z'
       FROM generate_series(10001, 1, -1) g`,
      [ws.id],
    );
    await db.query(`ANALYZE register.assets`);
    const all = await ws.all();
    expect(all).toHaveLength(10_000);
    const ids = all.map((asset) => asset.id);
    expect(ids[0]).toBe('ast_cap_00001');
    expect(ids[9_999]).toBe('ast_cap_10000');
    expect(ids).toEqual([...ids].sort());
  });

  it('cuts the unpaged list before it passes UNPAGED_MAX_BYTES of JSON, keeping the order', async () => {
    const ws = workspace();
    // Rows as large as validation lets them be: every text field 200 characters of U+0001,
    // which JSON writes as \u0001 (6 bytes each); about 6 KiB a row, 3,000 rows about 18 MiB.
    await db.query(
      `INSERT INTO register.assets (id, workspace_id, name, sku, brand, model, serial_number,
         asset_tag, created_at)
       SELECT 'ast_big_' || lpad(g::text, 5, '0'), $1, repeat(chr(1), 200), repeat(chr(1), 200),
              repeat(chr(1), 200), repeat(chr(1), 200), repeat(chr(1), 200), 'BIG-' || g,
              '2025-01-01T00:00:00Z'
       FROM generate_series(1, 3000) g`,
      [ws.id],
    );
    const all = await ws.all();
    const bytes = Buffer.byteLength(JSON.stringify(all));
    expect(bytes).toBeLessThanOrEqual(UNPAGED_MAX_BYTES);
    // Cut at the row that would not fit: one more would pass the bound.
    const row = Buffer.byteLength(JSON.stringify(all[0]));
    expect(bytes + 1 + row).toBeGreaterThan(UNPAGED_MAX_BYTES);
    expect(all.length).toBeLessThan(3000);
    expect(all.map((asset) => asset.id)).toEqual(
      Array.from({ length: all.length }, (_, i) => `ast_big_${String(i + 1).padStart(5, '0')}`),
    );
    // The pages still reach every row.
    expect((await ws.page({ page: '15', pageSize: '200' })).data).toHaveLength(200);
    // (Counted rather than read from the workspace counter, which these inserts skip.)
    expect((await ws.page({ page: '1', pageSize: '1', status: 'active' })).total).toBe(3000);
  });

  it("never lists or finds another workspace's asset", async () => {
    const mine = workspace();
    const theirs = workspace();
    const hidden = await theirs.create({ name: 'Secret laptop', sku: 'SECRET' });
    await mine.create({ name: 'My laptop' });
    expect(names(await mine.all())).toEqual(['My laptop']);
    expect(await mine.all({ search: 'secret' })).toEqual([]);
    expect((await mine.page({ page: '1' })).total).toBe(1);
    expect(await domainRejection(mine.get(hidden.id))).toMatchObject({
      code: 'not_found',
      message: `Asset ${hidden.id} not found`,
    });
    const before = await snapshot(theirs.id);
    expect(await domainRejection(mine.update(hidden.id, { name: 'Taken' }))).toMatchObject({
      code: 'not_found',
    });
    expect(await snapshot(theirs.id)).toEqual(before);
  });
});

describe('update', () => {
  it('keeps omitted fields, clears null ones, and refuses null for name, status and tag', async () => {
    const ws = workspace();
    const created = await ws.create({
      name: 'Laptop',
      sku: 'SKU-1',
      brand: 'Lenovo',
      model: 'X1',
      serial_number: 'SER-1',
      category: 'Laptops',
      location: 'HQ',
    });
    const updated = await ws.update(created.id, { brand: null, category: null, model: 'X1 Gen 2' });
    expect(updated).toMatchObject({
      name: 'Laptop',
      sku: 'SKU-1',
      brand: null,
      model: 'X1 Gen 2',
      serial_number: 'SER-1',
      asset_tag: created.asset_tag,
      category: null,
      location: created.location,
    });
    const [row] = await db.query<Array<Record<string, unknown>>>(
      `SELECT name, sku, brand, model, category_id, location_id, updated_at, created_at
       FROM register.assets WHERE id = $1`,
      [created.id],
    );
    expect(row).toMatchObject({
      name: 'Laptop',
      sku: 'SKU-1',
      brand: null,
      model: 'X1 Gen 2',
      category_id: null,
      location_id: created.location!.id,
    });
    expect((row!.updated_at as Date).getTime()).toBeGreaterThan(
      (row!.created_at as Date).getTime(),
    );

    const before = await snapshot(ws.id);
    for (const field of ['name', 'status', 'asset_tag'] as const) {
      const refused = await domainRejection(ws.update(created.id, { [field]: null }));
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).toContain(field);
    }
    expect(await snapshot(ws.id)).toEqual(before);
  });

  it('creates categories and locations on first use and reuses them whatever the case', async () => {
    const ws = workspace();
    const first = await ws.create({ name: 'A', category: 'Laptops', location: 'HQ' });
    const second = await ws.create({ name: 'B', category: ' laptops ', location: 'hq' });
    expect(second.category).toEqual(first.category);
    expect(second.location).toEqual(first.location);
    const moved = await ws.update(second.id, { category: 'Phones', location: 'HQ' });
    expect(moved.location).toEqual(first.location);
    const categories = await db.query<Array<{ id: string; name: string }>>(
      `SELECT id, name FROM register.categories WHERE workspace_id = $1 ORDER BY name`,
      [ws.id],
    );
    expect(categories).toEqual([
      { id: first.category!.id, name: 'Laptops' },
      { id: moved.category!.id, name: 'Phones' },
    ]);
    expect(await count('locations', ws.id)).toBe(1);
    // A name is per workspace: another workspace's "Laptops" is its own row.
    const elsewhere = await workspace().create({ name: 'C', category: 'Laptops' });
    expect(elsewhere.category!.id).not.toBe(first.category!.id);
  });

  it('moves the tag under the same uniqueness rule, and a conflict changes nothing', async () => {
    const ws = workspace();
    const first = await ws.create({ name: 'First' });
    const second = await ws.create({ name: 'Second' });
    const before = await snapshot(ws.id);
    expect(
      await domainRejection(ws.update(second.id, { asset_tag: first.asset_tag })),
    ).toMatchObject({
      code: 'conflict',
      message: `asset_tag ${first.asset_tag} is already used by another asset`,
    });
    expect(await snapshot(ws.id)).toEqual(before);
    expect((await ws.update(second.id, { asset_tag: 'AT-000003' })).asset_tag).toBe('AT-000003');
    // The generated sequence steps over it.
    expect((await ws.create({ name: 'Third' })).asset_tag).toBe('AT-000004');
  });
});

describe('outbox', () => {
  it('writes each event in the same transaction as its change, with the asset as returned', async () => {
    const ws = workspace();
    const created = await ws.create({ name: 'Evented', category: 'Tools' });
    const updated = await ws.update(created.id, { status: 'maintenance' });
    const rows = await outbox(ws.id);
    expect(rows.map((row) => [row.event, row.data])).toEqual([
      ['asset.created', created],
      ['asset.updated', updated],
    ]);
    // now() is the transaction's start: equal timestamps mean one transaction wrote both.
    expect(rows[0]!.created_at.toISOString()).toBe(created.created_at);
    expect(rows[1]!.created_at.toISOString()).toBe(updated.updated_at);
    expect(await ws.get(created.id)).toEqual(updated);
  });

  it('writes no event when the write fails or changes nothing', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Quiet', asset_tag: 'Q-1' });
    await ws.create({ name: 'Other', asset_tag: 'Q-2' });
    const before = await snapshot(ws.id);
    await domainRejection(ws.update(asset.id, { asset_tag: 'Q-2', name: 'Renamed' }));
    await domainRejection(ws.update(asset.id, { custom_fields: { unknown_key: 1 } }));
    await domainRejection(ws.create({ name: 'Bad', custom_fields: { unknown_key: 1 } }));
    await domainRejection(ws.update('ast_missing', { name: 'Ghost' }));
    expect(await ws.update(asset.id, {})).toEqual(asset);
    expect(await snapshot(ws.id)).toEqual(before);
  });
});
