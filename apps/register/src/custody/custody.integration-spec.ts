import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  type AssetSummary,
  type CallerContext,
  CreateAssetInput,
  type Page,
  PERSON_HOLDINGS_MAX,
  type PersonDetail,
  type RawQuery,
  CreatePersonInput,
  UpdateAssetInput,
  UpdatePersonInput,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  type ClientBody,
  testCaller,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { AssetsService } from '../assets/assets.service';
import { parseAssetListQuery } from '../assets/asset-list-query';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';

/** Check-out and check-in (an asset's assigned_to_id) on a fresh, migrated database. */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;

/** Events go to register.outbox, as the app's OutboxModule writes them. */
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  assets = new AssetsService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
  people = new PeopleService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
}, 30_000);

afterAll(() => store?.close());

/** The one place this file calls the services, with bodies as their consumers receive them. */
function workspace() {
  const caller: CallerContext = testCaller();
  return {
    id: caller.workspaceId,
    createAsset: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    updateAsset: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
    getAsset: (id: string) => assets.get(caller, id),
    createPerson: async (body: ClientBody<CreatePersonInput>) =>
      people.create(caller, await received(CreatePersonInput, body)),
    updatePerson: async (id: string, body: ClientBody<UpdatePersonInput>) =>
      people.update(caller, id, await received(UpdatePersonInput, body)),
    getPerson: (id: string) => people.get(caller, id),
    listAssets: async (query: RawQuery) =>
      (await assets.list(caller, parseAssetListQuery(query))) as Page<AssetSummary>,
  };
}

interface OutboxRow {
  event: string;
  data: Record<string, unknown>;
}

/** The custody events of a workspace, oldest first. */
function custodyEvents(workspaceId: string): Promise<OutboxRow[]> {
  return db.query(
    `SELECT event, data FROM register.outbox
     WHERE workspace_id = $1 AND event LIKE 'assignment.%' ORDER BY created_at, id`,
    [workspaceId],
  );
}

async function assetRow(id: string) {
  const rows = await db.query<Array<{ assigned_to_id: string | null; assigned_at: Date | null }>>(
    `SELECT assigned_to_id, assigned_at FROM register.assets WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

async function outboxCount(workspaceId: string): Promise<number> {
  const rows = await db.query<Array<{ n: number }>>(
    `SELECT count(*)::int AS n FROM register.outbox WHERE workspace_id = $1`,
    [workspaceId],
  );
  return rows[0]!.n;
}

describe('custody', () => {
  it('checks an asset out to an active person of the workspace, with the event', async () => {
    const ws = workspace();
    const ada = await ws.createPerson({ full_name: 'Ada Lovelace' });
    const laptop = await ws.createAsset({ name: 'Laptop' });
    const out = await ws.updateAsset(laptop.id, { assigned_to_id: ada.id });
    const holder = { id: ada.id, name: 'Ada Lovelace' };
    expect(out.assigned_to).toEqual(holder);
    expect(out.custody).toEqual({ person: holder, since: out.updated_at, due_at: null });
    expect(await assetRow(laptop.id)).toEqual({
      assigned_to_id: ada.id,
      assigned_at: new Date(out.updated_at),
    });
    expect(await custodyEvents(ws.id)).toEqual([
      { event: 'assignment.checked_out', data: { asset: out, person: holder, at: out.updated_at } },
    ]);
  });

  it('checks out at create: asset.created, then assignment.checked_out', async () => {
    const ws = workspace();
    const bob = await ws.createPerson({ full_name: 'Bob' });
    const drill = await ws.createAsset({ name: 'Drill', assigned_to_id: bob.id });
    expect(drill.custody).toEqual({
      person: { id: bob.id, name: 'Bob' },
      since: drill.created_at,
      due_at: null,
    });
    const events = await db.query<Array<{ event: string }>>(
      `SELECT event FROM register.outbox WHERE workspace_id = $1 ORDER BY created_at, id`,
      [ws.id],
    );
    expect(events.map((row) => row.event)).toEqual([
      'employee.created',
      'asset.created',
      'assignment.checked_out',
    ]);
  });

  it("refuses another workspace's person, an inactive person and an unknown id; nothing written", async () => {
    const ws = workspace();
    const stranger = await workspace().createPerson({ full_name: 'Stranger' });
    const leaver = await ws.createPerson({ full_name: 'Leaver', status: 'inactive' });
    const asset = await ws.createAsset({ name: 'Phone' });
    const events = await outboxCount(ws.id);
    const refusals = [
      [stranger.id, `assigned_to_id ${stranger.id} is not a person of this workspace`],
      [
        leaver.id,
        `assigned_to_id ${leaver.id} is inactive; assets are checked out to active people only`,
      ],
      ['per_unknown', 'assigned_to_id per_unknown is not a person of this workspace'],
    ];
    for (const [personId, message] of refusals) {
      expect(
        await domainRejection(ws.updateAsset(asset.id, { assigned_to_id: personId })),
      ).toMatchObject({ code: 'invalid_input', message });
      expect(
        await domainRejection(ws.createAsset({ name: 'Not created', assigned_to_id: personId })),
      ).toMatchObject({ code: 'invalid_input', message });
    }
    expect(await assetRow(asset.id)).toEqual({ assigned_to_id: null, assigned_at: null });
    expect(await outboxCount(ws.id)).toBe(events);
    const names = await db.query<Array<{ name: string }>>(
      `SELECT name FROM register.assets WHERE workspace_id = $1`,
      [ws.id],
    );
    expect(names).toEqual([{ name: 'Phone' }]);
  });

  it('checks in (null) and hands over (checked_in of the old holder, then checked_out)', async () => {
    const ws = workspace();
    const ann = await ws.createPerson({ full_name: 'Ann' });
    const ben = await ws.createPerson({ full_name: 'Ben' });
    const asset = await ws.createAsset({ name: 'Camera', assigned_to_id: ann.id });
    const handed = await ws.updateAsset(asset.id, { assigned_to_id: ben.id });
    const returned = await ws.updateAsset(asset.id, { assigned_to_id: null });
    expect(returned).toMatchObject({ assigned_to: null, custody: null });
    expect(await assetRow(asset.id)).toEqual({ assigned_to_id: null, assigned_at: null });
    const ANN = { id: ann.id, name: 'Ann' };
    const BEN = { id: ben.id, name: 'Ben' };
    expect((await custodyEvents(ws.id)).map((row) => [row.event, row.data.person])).toEqual([
      ['assignment.checked_out', ANN],
      ['assignment.checked_in', ANN],
      ['assignment.checked_out', BEN],
      ['assignment.checked_in', BEN],
    ]);
    const [, checkedIn] = await custodyEvents(ws.id);
    expect(checkedIn!.data).toEqual({ asset: handed, person: ANN, at: handed.updated_at });
    // Out to Ann again is a fifth event; naming the same holder once more is no change.
    await ws.updateAsset(asset.id, { assigned_to_id: ann.id });
    await ws.updateAsset(asset.id, { assigned_to_id: ann.id, name: 'Camera 2' });
    expect(await custodyEvents(ws.id)).toHaveLength(5);
  });

  it("lists a person's holdings, oldest check-out first, and drops what was checked in", async () => {
    const ws = workspace();
    const cat = await ws.createPerson({ full_name: 'Cat' });
    const first = await ws.createAsset({ name: 'Badge', assigned_to_id: cat.id });
    const second = await ws.createAsset({ name: 'Keys' });
    const out = await ws.updateAsset(second.id, { assigned_to_id: cat.id });
    await ws.createAsset({ name: 'Not hers' });
    expect((await ws.getPerson(cat.id)).holdings).toEqual([
      { id: first.id, name: 'Badge', asset_tag: first.asset_tag, since: first.created_at },
      { id: second.id, name: 'Keys', asset_tag: second.asset_tag, since: out.updated_at },
    ]);
    await ws.updateAsset(first.id, { assigned_to_id: null });
    expect((await ws.getPerson(cat.id)).holdings.map((holding) => holding.id)).toEqual([second.id]);
    expect((await ws.getPerson(cat.id)).holdings_count).toBe(1);
  });

  it('embeds at most the 50 most recent holdings, with the count, and lists them all by filter', async () => {
    const ws = workspace();
    const dan = await ws.createPerson({ full_name: 'Dan' });
    const other = await ws.createPerson({ full_name: 'Other' });
    await ws.createAsset({ name: 'Not his', assigned_to_id: other.id });
    const held: string[] = [];
    for (let i = 0; i < PERSON_HOLDINGS_MAX + 2; i++) {
      held.push((await ws.createAsset({ name: `Item ${i}`, assigned_to_id: dan.id })).id);
    }
    // The first two check-outs are the oldest: they are the ones left out.
    const recent = held.slice(2);
    const fetched = await ws.getPerson(dan.id);
    expect(fetched.holdings_count).toBe(PERSON_HOLDINGS_MAX + 2);
    expect(fetched.holdings.map((holding) => holding.id)).toEqual(recent);

    const offboarded = await ws.updatePerson(dan.id, { status: 'inactive' });
    expect(offboarded).toMatchObject({ holdings_count: 52, holdings: fetched.holdings });
    const [event] = await db.query<Array<{ data: PersonDetail }>>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'employee.offboarded'`,
      [ws.id],
    );
    expect(event!.data.holdings_count).toBe(PERSON_HOLDINGS_MAX + 2);
    expect(event!.data.holdings.map((holding) => holding.id)).toEqual(recent);

    // The whole list: GET /assets?assigned_to_id=, paged like any list.
    const listed = await ws.listAssets({ assigned_to_id: dan.id, page: '1', pageSize: '200' });
    expect(listed.total).toBe(PERSON_HOLDINGS_MAX + 2);
    expect(listed.data.map((asset) => asset.id)).toEqual(held);
    const nobody = await ws.listAssets({ assigned_to_id: 'per_unknown', page: '1' });
    expect(nobody).toMatchObject({ total: 0, data: [] });
  });

  it('serialises concurrent check-outs of one asset: every change has its event', async () => {
    const ws = workspace();
    const asset = await ws.createAsset({ name: 'Projector' });
    const staff = [];
    for (const name of ['Dee', 'Eve', 'Fay', 'Gus', 'Hal']) {
      staff.push((await ws.createPerson({ full_name: name })).id);
    }
    await Promise.all(staff.map((id) => ws.updateAsset(asset.id, { assigned_to_id: id })));
    const holder = (await ws.getAsset(asset.id)).assigned_to!.id;
    const events = await custodyEvents(ws.id);
    const personOf = (event: string) =>
      events
        .filter((row) => row.event === event)
        .map((row) => (row.data.person as { id: string }).id)
        .sort();
    expect(personOf('assignment.checked_out')).toEqual([...staff].sort());
    // Each check-out saw the one before it: every holder but the last was checked in once.
    expect(personOf('assignment.checked_in')).toEqual(staff.filter((id) => id !== holder).sort());
    // Every event names its person as the people table does.
    const named = await db.query<Array<{ id: string; full_name: string }>>(
      `SELECT id, full_name FROM register.people WHERE workspace_id = $1`,
      [ws.id],
    );
    const nameOf = new Map(named.map((row) => [row.id, row.full_name]));
    for (const row of events) {
      const person = row.data.person as { id: string; name: string };
      expect(person.name).toBe(nameOf.get(person.id));
    }
  });
});
