import {
  CreateAssetInput,
  CreateCategoryInput,
  UpdateAssetInput,
  UpdateCategoryInput,
  type CallerContext,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import { AssetBin } from '../assets/asset-bin';
import { parseAssetListQuery } from '../assets/asset-list-query';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { CategoriesService } from './categories.service';

/** Categories as records: names once per workspace, renames every asset shows, deletes when unused. */

let store: MigratedDatabase;
let categories: CategoriesService;
let assets: AssetsService;
let bin: AssetBin;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  const reads = new ReadTransactions(store.db);
  const writes = new WriteTransactions(store.db);
  const writer = new OutboxWriter('register');
  const activity = new ActivityLog('register');
  categories = new CategoriesService(reads, writes, activity);
  assets = new AssetsService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const key: CallerContext = testCaller();
  return {
    key,
    category: async (body: ClientBody<CreateCategoryInput>) =>
      categories.create(key, await received(CreateCategoryInput, body)),
    rename: async (id: string, body: ClientBody<UpdateCategoryInput>) =>
      categories.update(key, id, await received(UpdateCategoryInput, body)),
    asset: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(key, await received(CreateAssetInput, body)),
    editAsset: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(key, id, await received(UpdateAssetInput, body)),
  };
}

describe('categories', () => {
  it('creates, lists by name and renames: every asset shows the new name', async () => {
    const ws = workspace();
    const laptops = await ws.category({ name: 'Laptops' });
    await ws.category({ name: 'chairs' });
    const clash = await domainRejection(ws.category({ name: 'LAPTOPS' }));
    expect(clash).toMatchObject({ code: 'conflict' });
    expect(clash.message).toContain('name: a category called LAPTOPS already exists');
    // By name (v1) it is found, by id it is the same one.
    const first = await ws.asset({ name: 'ThinkPad', category: 'laptops' });
    const second = await ws.asset({ name: 'MacBook', category_id: laptops.id });
    expect(first.category?.id).toBe(laptops.id);
    expect(second.category).toEqual({ id: laptops.id, name: 'Laptops' });
    const listed = await categories.list(ws.key, {});
    expect(listed.data.map((category) => [category.name, category.asset_count])).toEqual([
      ['chairs', 0],
      ['Laptops', 2],
    ]);
    expect((await categories.list(ws.key, { search: 'lap' })).total).toBe(1);

    const renamed = await ws.rename(laptops.id, { name: 'Notebooks' });
    expect(renamed).toMatchObject({ name: 'Notebooks', asset_count: 2 });
    expect((await assets.get(ws.key, first.id)).category?.name).toBe('Notebooks');
    const page = (await assets.list(
      ws.key,
      parseAssetListQuery({ page: '1', category_id: laptops.id }),
    )) as { data: Array<{ name: string; category: { name: string } | null }>; total: number };
    expect(page.total).toBe(2);
    expect(page.data.map((asset) => asset.category?.name)).toEqual(['Notebooks', 'Notebooks']);
    const taken = await domainRejection(ws.rename(laptops.id, { name: 'Chairs' }));
    expect(taken.code).toBe('conflict');
  });

  it('deletes only an unused category, saying how many assets use it', async () => {
    const ws = workspace();
    const tools = await ws.category({ name: 'Tools' });
    const drill = await ws.asset({ name: 'Drill', category_id: tools.id });
    const used = await domainRejection(categories.delete(ws.key, tools.id));
    expect(used.code).toBe('conflict');
    expect(used.message).toContain('has 1 asset; give them another category first');
    const both = await domainRejection(
      ws.editAsset(drill.id, { category: 'Tools', category_id: tools.id }),
    );
    expect(both.message).toContain('category and category_id');
    // In the bin it no longer holds the category; restored, it comes back without it.
    await bin.delete(ws.key, drill.id);
    await categories.delete(ws.key, tools.id);
    expect((await bin.restore(ws.key, drill.id)).category).toBeNull();
    const missing = await domainRejection(ws.asset({ name: 'Saw', category_id: tools.id }));
    expect(missing.message).toContain(
      `category_id: ${tools.id} is not a category of this workspace`,
    );
  });
});
