import {
  CreateAssetInput,
  CreatePersonInput,
  UpdateAssetInput,
  UpdatePersonInput,
  type ActivityFilter,
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
import type { DataSource } from 'typeorm';
import { AssetBin } from '../assets/asset-bin';
import { AssetScanner } from '../assets/asset-scanner';
import { AssetsService } from '../assets/assets.service';
import { AssignmentOverdue } from '../assets/assignment-overdue';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import { registerDataSource } from '../database/data-source';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/** The register's activity entries, written with each change, on a fresh migrated database. */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;
let scanner: AssetScanner;
let dueDates: DueDateEngine;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
  scanner = new AssetScanner(writes, writer, activity);
  dueDates = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new AssignmentOverdue(dueDates, writer, activity).onModuleInit();
}, 30_000);

afterAll(() => store?.close());

/** A workspace whose calls come from an API key named Zapier, or from a console member. */
function workspace(console?: { memberId: string; email: string }) {
  const base = testCaller();
  const caller: CallerContext = console
    ? { ...base, keyId: `console:${console.memberId}`, actorName: console.email }
    : { ...base, actorName: 'Zapier' };
  return {
    caller,
    create: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    update: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
    person: async (full_name: string) =>
      people.create(caller, await received(CreatePersonInput, { full_name })),
    updatePerson: async (id: string, body: ClientBody<UpdatePersonInput>) =>
      people.update(caller, id, await received(UpdatePersonInput, body)),
    feed: (filter: Omit<ActivityFilter, 'limit'> & { limit?: number } = {}) =>
      activity.page(db.manager, caller.workspaceId, { limit: 50, ...filter }),
  };
}

describe('assets', () => {
  it('records a creation by an API key, by name, with every field set', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Laptop', brand: 'Apple', category: 'Laptops' });
    const [entry] = await ws.feed();
    expect(entry).toMatchObject({
      source: 'api',
      actor: { type: 'key', id: ws.caller.keyId, name: 'Zapier' },
      record_type: 'asset',
      record_id: asset.id,
      record_name: 'Laptop',
      action: 'created',
      related_id: null,
    });
    expect(entry?.changes).toEqual([
      { field: 'name', from: null, to: 'Laptop' },
      { field: 'asset_tag', from: null, to: asset.asset_tag },
      { field: 'status', from: null, to: 'active' },
      { field: 'brand', from: null, to: 'Apple' },
      { field: 'category', from: null, to: 'Laptops' },
    ]);
    expect(entry?.id).toMatch(/^act_/);
    expect(Date.parse(entry?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records an update as the fields that changed, old and new, custom fields by key', async () => {
    const ws = workspace({ memberId: 'usr_manager', email: 'manager@example.com' });
    await new CustomFieldsService(db).create({
      workspace: ws.caller.workspaceId,
      key: 'cost_center',
      label: 'Cost center',
      type: 'text',
    });
    const asset = await ws.create({ name: 'Desk', custom_fields: { cost_center: 'A1' } });
    await ws.update(asset.id, {
      name: 'Standing desk',
      condition: 'good',
      custom_fields: { cost_center: 'B2' },
    });
    // A write that changes nothing changes nothing in the feed either.
    await ws.update(asset.id, { name: 'Standing desk' });
    const [updated] = await ws.feed({ action: 'updated' });
    expect(updated).toMatchObject({
      source: 'console',
      actor: { type: 'member', id: 'usr_manager', name: 'manager@example.com' },
      record_name: 'Standing desk',
    });
    expect(updated?.changes).toEqual([
      { field: 'name', from: 'Desk', to: 'Standing desk' },
      { field: 'condition', from: null, to: 'good' },
      { field: 'custom_fields.cost_center', from: 'A1', to: 'B2' },
    ]);
    expect(await ws.feed({ action: 'updated' })).toHaveLength(1);
  });

  it("puts a check-out and check-in in the asset's and the person's history", async () => {
    const ws = workspace();
    const person = await ws.person('Ada Lovelace');
    const asset = await ws.create({ name: 'Phone' });
    const due = new Date(Date.now() + 3_600_000).toISOString();
    await ws.update(asset.id, { assigned_to_id: person.id, due_at: due });
    await ws.update(asset.id, { assigned_to_id: null });

    const history = await ws.feed({ record_id: person.id });
    expect(history.map((entry) => [entry.action, entry.record_id, entry.related_name])).toEqual([
      ['checked_in', asset.id, 'Ada Lovelace'],
      ['checked_out', asset.id, 'Ada Lovelace'],
      ['created', person.id, null],
    ]);
    expect(history[1]?.changes).toEqual([
      { field: 'assigned_to', from: null, to: 'Ada Lovelace' },
      { field: 'due_at', from: null, to: due },
    ]);
    expect((await ws.feed({ record_id: asset.id })).map((entry) => entry.action)).toEqual([
      'checked_in',
      'checked_out',
      'created',
    ]);
  });

  it('records delete, restore and scan, and an overdue check-out as the system', async () => {
    const ws = workspace();
    const person = await ws.person('Grace Hopper');
    const asset = await ws.create({ name: 'Drill', asset_tag: 'DR-1' });
    await bin.delete(ws.caller, asset.id);
    await bin.restore(ws.caller, asset.id);
    await scanner.scan(ws.caller, 'dr-1');
    await ws.update(asset.id, {
      assigned_to_id: person.id,
      due_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await dueDates.runDue(new Date(Date.now() + 120_000));

    const feed = await ws.feed({ record_id: asset.id });
    expect(feed.map((entry) => [entry.action, entry.source, entry.actor.type])).toEqual([
      ['overdue', 'system', 'system'],
      ['checked_out', 'api', 'key'],
      ['scanned', 'api', 'key'],
      ['restored', 'api', 'key'],
      ['deleted', 'api', 'key'],
      ['created', 'api', 'key'],
    ]);
    expect(feed[2]?.changes).toEqual([{ field: 'asset_tag', from: null, to: 'dr-1' }]);
    expect(feed[0]).toMatchObject({ related_id: person.id, related_name: 'Grace Hopper' });
  });

  it('leaves no entry for a write that was refused', async () => {
    const ws = workspace();
    const person = await ws.person('Alan Turing');
    const asset = await ws.create({ name: 'Monitor' });
    await ws.update(asset.id, { assigned_to_id: person.id });
    expect(await domainRejection(bin.delete(ws.caller, asset.id))).toMatchObject({
      code: 'conflict',
    });
    expect(await ws.feed({ action: 'deleted' })).toEqual([]);
  });
});

describe('people', () => {
  it('records an offboarding as such, with the status change', async () => {
    const ws = workspace();
    const person = await ws.person('Katherine Johnson');
    await ws.updatePerson(person.id, { email: 'kj@example.com' });
    await ws.updatePerson(person.id, { status: 'inactive' });
    const [offboarded, updated] = await ws.feed({ record_type: 'person' });
    expect(offboarded).toMatchObject({
      action: 'offboarded',
      record_name: 'Katherine Johnson',
      changes: [{ field: 'status', from: 'active', to: 'inactive' }],
    });
    expect(updated?.changes).toEqual([{ field: 'email', from: null, to: 'kj@example.com' }]);
  });
});

describe('the page', () => {
  it('walks older entries with before, filters by source and actor, and keeps workspaces apart', async () => {
    const ws = workspace();
    const other = workspace();
    for (const name of ['A', 'B', 'C', 'D', 'E']) await ws.create({ name });
    await other.create({ name: 'Elsewhere' });

    const first = await ws.feed({ limit: 2 });
    // limit + 1: the extra entry says there is more.
    expect(first.map((entry) => entry.record_name)).toEqual(['E', 'D', 'C']);
    const second = await ws.feed({ limit: 2, before: first[1]?.id });
    expect(second.map((entry) => entry.record_name)).toEqual(['C', 'B', 'A']);
    expect(await ws.feed({ source: 'console' })).toEqual([]);
    expect(await ws.feed({ actor_id: ws.caller.keyId })).toHaveLength(5);
    expect((await other.feed()).map((entry) => entry.record_name)).toEqual(['Elsewhere']);
  });
});
