import {
  CreateAssetInput,
  UpdateAssetInput,
  type AssetSummary,
  type Page,
  type RawQuery,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { ListCache, listTuning } from '@custodian/register-sql';
import {
  createMigratedDatabase,
  received,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { parseAssetListQuery } from './asset-list-query';
import { AssetsService } from './assets.service';

/**
 * `GET /assets?sort=`: every plan of the list read (small and large workspaces, searched or
 * not, counted or cached totals) gives the same order, pages walk it without a gap or a
 * repeat, and a sorted walk never leaves page ends that send a default-order walk astray.
 */

let store: MigratedDatabase;
let assets: AssetsService;
const caller = testCaller();
const NAMES = ['delta', 'Alpha', 'charlie', 'echo', 'bravo', 'alpha two'];
const saved = listTuning.smallWorkspaceRows;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 4));
  const writes = new WriteTransactions(store.db);
  assets = new AssetsService(
    new ReadTransactions(store.db),
    writes,
    new OutboxWriter('register'),
    new ActivityLog('register'),
    new ListCache(),
  );
  for (const name of NAMES) await assets.create(caller, await received(CreateAssetInput, { name }));
}, 30_000);

afterAll(async () => {
  listTuning.smallWorkspaceRows = saved;
  await store?.close();
});

async function page(query: RawQuery): Promise<Page<AssetSummary>> {
  return (await assets.list(caller, parseAssetListQuery(query))) as Page<AssetSummary>;
}

/** Every page of size 2, in order, as names. */
async function walk(query: RawQuery): Promise<string[]> {
  const names: string[] = [];
  for (let n = 1; ; n++) {
    const answer = await page({ ...query, page: String(n), pageSize: '2' });
    names.push(...answer.data.map((asset) => asset.name));
    if (n * 2 >= answer.total) return names;
  }
}

/** The order Postgres's collation gives the names, asked of Postgres itself. */
async function collated(names: string[], descending = false): Promise<string[]> {
  const rows = await store.db.query<Array<{ name: string }>>(
    `SELECT name FROM unnest($1::text[]) AS name ORDER BY name ${descending ? 'DESC' : ''}`,
    [names],
  );
  return rows.map((row) => row.name);
}

describe.each([
  ['a large workspace', 0],
  ['a small workspace', 10_000],
])('sorted lists in %s', (_label, smallRows) => {
  beforeAll(() => {
    listTuning.smallWorkspaceRows = smallRows;
  });

  it('walks the pages by name either way, with and without a search', async () => {
    expect(await walk({ sort: 'name' })).toEqual(await collated(NAMES));
    expect(await walk({ sort: '-name' })).toEqual(await collated(NAMES, true));
    // 'ha': in names only, never in a generated tag (AT-000001).
    const withHa = NAMES.filter((name) => name.toLowerCase().includes('ha'));
    expect(withHa).toHaveLength(3);
    expect(await walk({ sort: '-name', search: 'ha' })).toEqual(await collated(withHa, true));
  });

  it('walks newest first, and the default walk after it is still oldest first', async () => {
    expect(await walk({ sort: '-created_at' })).toEqual([...NAMES].reverse());
    expect(await walk({ search: 'ha' })).toEqual(
      NAMES.filter((name) => name.toLowerCase().includes('ha')),
    );
    expect(await walk({})).toEqual(NAMES);
  });
});

it('sorts by updated_at, the asset changed last at the end', async () => {
  const [first] = (await page({ page: '1', pageSize: '1' })).data;
  await assets.update(caller, first!.id, await received(UpdateAssetInput, { brand: 'Acme' }));
  const names = await walk({ sort: 'updated_at' });
  expect(names.at(-1)).toBe(first!.name);
  expect((await walk({ sort: '-updated_at' }))[0]).toBe(first!.name);
});

it('keeps the bare array in the order asked for too', async () => {
  const bare = await assets.list(caller, parseAssetListQuery({ sort: '-name' }));
  expect('bytes' in bare).toBe(true);
  const names = (JSON.parse((bare as { bytes: Buffer }).bytes.toString()) as AssetSummary[]).map(
    (asset) => asset.name,
  );
  expect(names).toEqual(await collated(NAMES, true));
});
