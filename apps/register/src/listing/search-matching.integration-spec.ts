import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  CreateAssetInput,
  CreatePersonInput,
  PERSON_STATUSES,
  type AssetSummary,
  type ListReply,
  type PersonSummary,
  type RawQuery,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
  pageOf,
  unpagedArray,
} from '@custodian/testing';
import { parseAssetListQuery } from '../assets/asset-list-query';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { parseListQuery } from './list-query';
import { ListCache, listTuning } from '@custodian/register-sql';

/**
 * The matching rules of `search`, as a table of terms and the records each must find, run
 * against the real database. Whatever plan, index or cache serves a search (selective or broad
 * terms, several words, a tag or serial typed exactly, punctuation, one or two characters), it
 * answers these the same: a case-insensitive substring of one field, for assets its name, asset
 * tag, serial, brand, model or SKU, for people their name, e-mail or employee number; never of
 * another field, never across two fields, never of another workspace. Each term is checked as
 * the unpaged array and page by page (pageSize 2) with the exact total on every page, under both
 * plans (a small workspace's rows filtered, and the large workspace's indexes), each with no
 * list cache (every page skips OFFSET rows and counts) and with one (pages after the first seek
 * past the previous page's last row, the total counted once).
 */

let store: MigratedDatabase;
let assets: AssetsService;
let people: PeopleService;
let reads: ReadTransactions;
let transactions: WriteTransactions;
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const mine = testCaller();
const theirs = testCaller();

const ASSETS: Array<ClientBody<CreateAssetInput>> = [
  {
    name: 'MacBook Pro 14',
    asset_tag: 'LAB-0001',
    serial_number: 'C02XYZ123',
    brand: 'Apple',
    model: 'A2442',
    sku: 'MBP-14-2023',
    category: 'Laptops',
    location: 'Head office',
  },
  {
    name: 'ThinkPad X1',
    asset_tag: 'LAB-0002',
    serial_number: 'PF-3ABC',
    brand: 'Lenovo',
    model: 'X1 Carbon Gen 11',
    sku: 'TP-X1',
    category: 'Laptops',
    status: 'retired',
  },
  { name: 'Monitor 27"', asset_tag: 'MON-7', brand: 'DELL', model: 'U2723QE' },
  { name: 'Drill', asset_tag: 'TL-1', serial_number: 'SN-Alpha-9', brand: 'Bosch' },
  { name: '50% off sign', asset_tag: 'SG-1', sku: 'SIGN_50' },
  { name: 'C:\\ drive label', asset_tag: 'SG-2' },
  { name: 'Ärztekoffer', asset_tag: 'MED-1', brand: 'Müller' },
  { name: 'Chair', asset_tag: 'FN-1', brand: 'Herman Miller', model: 'Aeron-B', status: 'retired' },
  { name: 'Desk', asset_tag: 'FN-2', sku: 'sku-77-desk' },
  { name: 'Asset 12345', asset_tag: 'NUM-1' },
  { name: 'Asset 123456', asset_tag: 'NUM-2' },
  { name: 'Asset 2345', asset_tag: 'NUM-3' },
];

/** Terms and the names they find, in list order (created_at, then id). */
const ASSET_TERMS: Array<[term: string, names: string[], query?: RawQuery]> = [
  ['macbook', ['MacBook Pro 14']],
  ['MACBOOK PRO', ['MacBook Pro 14']],
  ['pro 14', ['MacBook Pro 14']],
  ['  dell ', ['Monitor 27"']],
  ['lab-000', ['MacBook Pro 14', 'ThinkPad X1']],
  ['LAB-0002', ['ThinkPad X1']],
  ['c02xyz123', ['MacBook Pro 14']],
  ['apple', ['MacBook Pro 14']],
  ['a2442', ['MacBook Pro 14']],
  ['mbp-14', ['MacBook Pro 14']],
  ['x1', ['ThinkPad X1']],
  ['gen 11', ['ThinkPad X1']],
  ['sn-alpha-9', ['Drill']],
  ['27"', ['Monitor 27"']],
  ['q', ['Monitor 27"']],
  ['qe', ['Monitor 27"']],
  ['50%', ['50% off sign']],
  ['%', ['50% off sign']],
  ['sign_50', ['50% off sign']],
  ['_', ['50% off sign']],
  ['c:\\', ['C:\\ drive label']],
  ['ärzte', ['Ärztekoffer']],
  ['MÜLLER', ['Ärztekoffer']],
  ['aeron', ['Chair']],
  ['sku-77', ['Desk']],
  ['asset 12345', ['Asset 12345', 'Asset 123456']],
  ['2345', ['Asset 12345', 'Asset 123456', 'Asset 2345']],
  ['num-', ['Asset 12345', 'Asset 123456', 'Asset 2345']],
  // Not searched: category and location.
  ['laptops', []],
  ['head office', []],
  // Never across two fields: name then tag, tag then serial, words run together.
  ['pro 14lab', []],
  ['0001c02', []],
  ['bookpro', []],
  // Another workspace's records never match.
  ['decoy', []],
  // With a status filter, both apply.
  ['lab-000', ['ThinkPad X1'], { status: 'retired' }],
  ['x1', [], { status: 'active' }],
];

const PEOPLE: Array<ClientBody<CreatePersonInput>> = [
  {
    full_name: 'Ada Lovelace',
    email: 'ada@acme.example',
    employee_number: 'E-1001',
    department: 'Engineering',
  },
  { full_name: 'Grace Hopper', email: 'grace.hopper@navy.example', employee_number: 'E-1002' },
  { full_name: 'Alan Turing', employee_number: 'X_9', location: 'Bletchley', status: 'inactive' },
  { full_name: 'Zoë Ångström', email: 'zoe@example.org' },
];

const PEOPLE_TERMS: Array<[term: string, names: string[], query?: RawQuery]> = [
  ['ada', ['Ada Lovelace']],
  ['ACME', ['Ada Lovelace']],
  ['e-100', ['Ada Lovelace', 'Grace Hopper']],
  ['E-1002', ['Grace Hopper']],
  ['hopper@navy', ['Grace Hopper']],
  ['@', ['Ada Lovelace', 'Grace Hopper', 'Zoë Ångström']],
  ['x_9', ['Alan Turing']],
  ['_', ['Alan Turing']],
  ['n t', ['Alan Turing']],
  ['ångström', ['Zoë Ångström']],
  ['ZOË', ['Zoë Ångström']],
  ['engineering', []],
  ['bletchley', []],
  ['lovelaceada', []],
  ['decoy', []],
  ['e-100', [], { status: 'inactive' }],
  ['x_9', ['Alan Turing'], { status: 'inactive' }],
];

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  transactions = new WriteTransactions(store.db);
  reads = new ReadTransactions(store.db);
  assets = new AssetsService(reads, transactions, writer, activity);
  people = new PeopleService(reads, transactions, writer, activity);
  // One at a time: the list order is the order of creation.
  for (const body of ASSETS) await assets.create(mine, await received(CreateAssetInput, body));
  for (const body of PEOPLE) await people.create(mine, await received(CreatePersonInput, body));
  // Another workspace whose records would match every term above.
  for (const body of [...ASSETS, { name: 'Decoy' }]) {
    await assets.create(theirs, await received(CreateAssetInput, body));
  }
  for (const body of [...PEOPLE, { full_name: 'Decoy' }]) {
    await people.create(theirs, await received(CreatePersonInput, body));
  }
}, 60_000);

afterAll(() => store?.close());

/** The table's rows with the query other than `search` always present (for the test names). */
function withQuery(
  terms: Array<[string, string[], RawQuery?]>,
): Array<[string, string[], RawQuery]> {
  return terms.map(([term, names, query]) => [term, names, query ?? {}]);
}

/** The unpaged array, then every page of two with its total: the names found, in order. */
async function everyWay<T>(
  list: (query: RawQuery) => Promise<ListReply<T>>,
  name: (record: T) => string,
  query: RawQuery,
): Promise<{ unpaged: string[]; paged: string[]; totals: number[] }> {
  const unpaged = unpagedArray(await list(query)).map(name);
  const paged: string[] = [];
  const totals: number[] = [];
  for (let page = 1; ; page++) {
    const answer = pageOf(await list({ ...query, page: String(page), pageSize: '2' }));
    paged.push(...answer.data.map(name));
    totals.push(answer.total);
    if (answer.data.length < 2) break;
  }
  return { unpaged, paged, totals };
}

describe.each([
  ['a small workspace (its rows filtered), uncached', 10_000, false],
  ['a small workspace (its rows filtered), cached', 10_000, true],
  ['a large workspace (trigram and order indexes), uncached', 0, false],
  ['a large workspace (trigram and order indexes), cached', 0, true],
])('search matching rules, planned as %s', (_plan, smallWorkspaceRows, cached) => {
  const saved = listTuning.smallWorkspaceRows;
  beforeAll(() => {
    listTuning.smallWorkspaceRows = smallWorkspaceRows;
    const cache = new ListCache(cached ? undefined : 0);
    assets = new AssetsService(reads, transactions, writer, activity, cache);
    people = new PeopleService(reads, transactions, writer, activity, cache);
  });
  afterAll(() => {
    listTuning.smallWorkspaceRows = saved;
  });

  describe('assets', () => {
    it.each(withQuery(ASSET_TERMS))('%j finds %j %j', async (term, names, query) => {
      const found = await everyWay<AssetSummary>(
        async (raw) => assets.list(mine, parseAssetListQuery(raw)),
        (asset) => asset.name,
        { ...query, search: term },
      );
      expect(found.unpaged).toEqual(names);
      expect(found.paged).toEqual(names);
      expect(new Set(found.totals)).toEqual(new Set([names.length]));
    });
  });

  describe('people', () => {
    it.each(withQuery(PEOPLE_TERMS))('%j finds %j %j', async (term, names, query) => {
      const found = await everyWay<PersonSummary>(
        async (raw) => people.list(mine, parseListQuery(raw, PERSON_STATUSES)),
        (person) => person.full_name,
        { ...query, search: term },
      );
      expect(found.unpaged).toEqual(names);
      expect(found.paged).toEqual(names);
      expect(new Set(found.totals)).toEqual(new Set([names.length]));
    });
  });
});
