import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  CreateAssetInput,
  CreatePersonInput,
  UpdateAssetInput,
  UpdatePersonInput,
  PERSON_STATUSES,
  type AssetSummary,
  type Page,
  type PersonSummary,
  type RawQuery,
} from '@custodian/contracts';
import { ListCache, readList, type ListSource, type RunSql } from '@custodian/register-sql';
import {
  createMigratedDatabase,
  received,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import { parseAssetListQuery } from '../assets/asset-list-query';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { parseListQuery } from './list-query';

/**
 * The list cache (docs/adr/0014): a filtered total and the pages' last ids are reused only
 * while the workspace's list version is unchanged, and every change a list can see bumps it,
 * whatever makes the change (the services, or SQL straight to the table).
 */

let store: MigratedDatabase;
let assets: AssetsService;
let people: PeopleService;
let cache: ListCache;
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
});

beforeEach(() => {
  cache = new ListCache();
  const reads = new ReadTransactions(store.db);
  const writes = new WriteTransactions(store.db);
  assets = new AssetsService(reads, writes, writer, activity, cache);
  people = new PeopleService(reads, writes, writer, activity, cache);
});

afterAll(() => store?.close());

async function listAssets(caller: ReturnType<typeof testCaller>, query: RawQuery) {
  return (await assets.list(caller, parseAssetListQuery(query))) as Page<AssetSummary>;
}

async function version(workspaceId: string, column = 'asset_version'): Promise<number> {
  const [row] = await store.db.query<Array<{ version: string }>>(
    `SELECT ${column} AS version FROM register.workspace_counters WHERE workspace_id = $1`,
    [workspaceId],
  );
  return Number(row?.version);
}

async function createAssets(caller: ReturnType<typeof testCaller>, names: string[]) {
  const created: AssetSummary[] = [];
  for (const name of names) {
    created.push(await assets.create(caller, await received(CreateAssetInput, { name })));
  }
  return created;
}

it('counts a search again after a create, an edit, a check-out or a delete changes it', async () => {
  const me = testCaller();
  const [first, second] = await createAssets(me, ['Drill 1', 'Drill 2', 'Saw 1']);
  const drills = { search: 'drill', page: '1', pageSize: '10' };
  expect((await listAssets(me, drills)).total).toBe(2);

  await createAssets(me, ['Drill 3']);
  expect((await listAssets(me, drills)).total).toBe(3);

  await assets.update(me, first!.id, await received(UpdateAssetInput, { name: 'Hammer' }));
  expect((await listAssets(me, drills)).total).toBe(2);

  await assets.update(me, second!.id, await received(UpdateAssetInput, { status: 'retired' }));
  expect((await listAssets(me, { ...drills, status: 'retired' })).total).toBe(1);
  expect((await listAssets(me, { ...drills, status: 'active' })).total).toBe(1);

  const holder = await people.create(me, await received(CreatePersonInput, { full_name: 'Ida' }));
  const held = { assigned_to_id: holder.id, page: '1', pageSize: '10' };
  expect((await listAssets(me, held)).total).toBe(0);
  await assets.update(
    me,
    second!.id,
    await received(UpdateAssetInput, { assigned_to_id: holder.id }),
  );
  expect((await listAssets(me, held)).total).toBe(1);

  // Not through the services: the trigger sees every write.
  await store.db.query(`DELETE FROM register.assets WHERE id = $1`, [second!.id]);
  expect((await listAssets(me, drills)).total).toBe(1);
  expect((await listAssets(me, held)).total).toBe(0);
});

it('bumps the version once per statement and workspace, and not for columns no list filters on', async () => {
  const me = testCaller();
  const other = testCaller();
  const [asset] = await createAssets(me, ['Lathe']);
  await createAssets(other, ['Lathe']);
  const before = await version(me.workspaceId);
  const theirs = await version(other.workspaceId);

  await assets.update(
    me,
    asset!.id,
    await received(UpdateAssetInput, { purchase_date: '2026-01-05' }),
  );
  expect(await version(me.workspaceId)).toBe(before);

  await assets.update(me, asset!.id, await received(UpdateAssetInput, { model: 'L-2' }));
  expect(await version(me.workspaceId)).toBe(before + 1);
  // The assets list filters by location and category (issue 34): moving one counts.
  await assets.update(me, asset!.id, await received(UpdateAssetInput, { location: 'Annex' }));
  expect(await version(me.workspaceId)).toBe(before + 2);
  expect(await version(other.workspaceId)).toBe(theirs);

  // A bulk statement over many rows of one workspace: one bump.
  await store.db.query(
    `INSERT INTO register.assets (id, workspace_id, name, asset_tag)
     SELECT 'ast_bulk_' || g, $1, 'Bulk ' || g, 'BULK-' || g FROM generate_series(1, 50) g`,
    [me.workspaceId],
  );
  expect(await version(me.workspaceId)).toBe(before + 3);
});

it('bumps the people version for a person created, renamed or made inactive', async () => {
  const me = testCaller();
  const list = async (query: RawQuery) =>
    (await people.list(me, parseListQuery(query, PERSON_STATUSES))) as Page<PersonSummary>;
  const ada = await people.create(me, await received(CreatePersonInput, { full_name: 'Ada' }));
  await people.create(me, await received(CreatePersonInput, { full_name: 'Adam' }));
  const query = { search: 'ada', page: '1', pageSize: '1' };
  expect((await list(query)).total).toBe(2);
  const before = await version(me.workspaceId, 'person_version');

  await people.update(me, ada.id, await received(UpdatePersonInput, { status: 'inactive' }));
  expect(await version(me.workspaceId, 'person_version')).toBe(before + 1);
  expect((await list({ ...query, status: 'active' })).total).toBe(1);
  await people.update(me, ada.id, await received(UpdatePersonInput, { full_name: 'Grace' }));
  expect((await list(query)).total).toBe(1);
});

describe('a walk through the pages', () => {
  const source: ListSource = {
    columns: 'a.id, a.name',
    from: 'register.assets a',
    table: 'register.assets',
    alias: 'a',
    counter: 'asset_count',
    version: 'asset_version',
    rowsVersion: 'asset_rows_version',
  };

  /** readList over the test database, with every statement it sends. */
  function recorded(): { run: RunSql; statements: string[] } {
    const statements: string[] = [];
    const run: RunSql = async <R>(sql: string, params: unknown[]) => {
      statements.push(sql);
      return store.db.query<R[]>(sql, params);
    };
    return { run, statements };
  }

  it('seeks each page past the last one and counts once, with the same rows as OFFSET', async () => {
    const me = testCaller();
    const names = Array.from({ length: 23 }, (_, i) => `Bolt ${i}`);
    await createAssets(me, names);
    const walk = async (listCache: ListCache) => {
      const { run, statements } = recorded();
      const pages: string[][] = [];
      const totals: Array<number | null> = [];
      for (let page = 1; page <= 5; page++) {
        const read = await readList<{ id: string; name: string }>(
          run,
          source,
          me.workspaceId,
          { search: 'bolt', page, pageSize: 5 },
          listCache,
          10_000,
        );
        pages.push(read.rows.map((row) => row.name));
        totals.push(read.total);
      }
      return { pages, totals, statements };
    };

    // A cache that keeps nothing: every page skips OFFSET rows and counts.
    const cold = await walk(new ListCache(0));
    const warm = await walk(new ListCache());
    expect(warm.pages).toEqual(cold.pages);
    expect(warm.pages.flat()).toEqual(names);
    expect(warm.totals).toEqual([23, 23, 23, 23, 23]);
    expect(cold.totals).toEqual(warm.totals);

    // Uncached, every page brings its total along (the matches counted and paged at once);
    // cached, only the first.
    const counted = (statements: string[]) =>
      statements.filter((sql) => /matches AS MATERIALIZED/.test(sql));
    const separateCounts = (statements: string[]) =>
      statements.filter((sql) => /SELECT count\(\*\)::int AS total/.test(sql));
    const seeks = (statements: string[]) => statements.filter((sql) => /k\.id = \$/.test(sql));
    expect(counted(cold.statements)).toHaveLength(5);
    expect(seeks(cold.statements)).toHaveLength(0);
    expect(counted(warm.statements)).toHaveLength(1);
    expect(seeks(warm.statements)).toHaveLength(4);
    expect([...separateCounts(cold.statements), ...separateCounts(warm.statements)]).toEqual([]);
    expect(warm.statements.filter((sql) => /OFFSET [1-9]/.test(sql))).toHaveLength(0);
  });

  it('counts on its own for a page past the end, which has no row to carry the total', async () => {
    const me = testCaller();
    await createAssets(me, ['Gear 1', 'Gear 2', 'Gear 3']);
    const { run, statements } = recorded();
    const read = await readList<{ id: string; name: string }>(
      run,
      source,
      me.workspaceId,
      { search: 'gear', page: 4, pageSize: 2 },
      new ListCache(),
      10_000,
    );
    expect(read).toEqual({ rows: [], total: 3, rowsVersion: null });
    expect(statements.filter((sql) => /SELECT count\(\*\)::int AS total/.test(sql))).toHaveLength(
      1,
    );
  });

  it('goes back to OFFSET for a page whose previous page changed', async () => {
    const me = testCaller();
    const created = await createAssets(
      me,
      Array.from({ length: 6 }, (_, i) => `Nut ${i}`),
    );
    const { run, statements } = recorded();
    const page = (n: number) =>
      readList<{ id: string; name: string }>(
        run,
        source,
        me.workspaceId,
        { search: 'nut', page: n, pageSize: 2 },
        cache,
        10_000,
      );
    expect((await page(1)).rows.map((row) => row.name)).toEqual(['Nut 0', 'Nut 1']);
    // Page 1's last row stops matching: page 2 must not seek from it.
    await store.db.query(`UPDATE register.assets SET name = 'Washer' WHERE id = $1`, [
      created[1]!.id,
    ]);
    const second = await page(2);
    expect(second.rows.map((row) => row.name)).toEqual(['Nut 3', 'Nut 4']);
    expect(second.total).toBe(5);
    expect(statements.filter((sql) => /k\.id = \$/.test(sql))).toHaveLength(0);
  });
});
