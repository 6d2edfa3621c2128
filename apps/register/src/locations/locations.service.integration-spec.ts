import {
  CreateAssetInput,
  CreateLocationInput,
  CreatePersonInput,
  UpdateAssetInput,
  UpdateLocationInput,
  type CallerContext,
  type Page,
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
import { parseListQuery } from '../listing/list-query';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { LocationsService } from './locations.service';

/**
 * Locations on a fresh migrated database: the tree (order, depth, path), names among siblings,
 * moves without cycles or excess depth (also two racing), deletes only when empty, and the
 * asset and person writes and lists that refer to places by name or id.
 */

let store: MigratedDatabase;
let locations: LocationsService;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 16));
  const reads = new ReadTransactions(store.db);
  const writes = new WriteTransactions(store.db);
  const writer = new OutboxWriter('register');
  const activity = new ActivityLog('register');
  locations = new LocationsService(reads, writes, activity);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const key: CallerContext = testCaller();
  return {
    key,
    place: async (body: ClientBody<CreateLocationInput>) =>
      locations.create(key, await received(CreateLocationInput, body)),
    move: async (id: string, body: ClientBody<UpdateLocationInput>) =>
      locations.update(key, id, await received(UpdateLocationInput, body)),
    asset: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(key, await received(CreateAssetInput, body)),
    editAsset: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(key, id, await received(UpdateAssetInput, body)),
    assetNames: async (raw: Record<string, string>) => {
      const page = (await assets.list(key, parseAssetListQuery({ page: '1', ...raw }))) as {
        data: Array<{ name: string }>;
        total: number;
      };
      return { names: page.data.map((asset) => asset.name).sort(), total: page.total };
    },
  };
}

describe('locations', () => {
  it('lists the tree in order, each place after its parent, with its depth and path', async () => {
    const ws = workspace();
    const hq = await ws.place({ name: 'HQ', address: '1 Main St' });
    const floor2 = await ws.place({ name: 'Floor 2', parent_id: hq.id });
    const floor1 = await ws.place({ name: 'Floor 1', parent_id: hq.id });
    const room = await ws.place({ name: 'Room 101', parent_id: floor1.id, notes: 'Key at desk' });
    const annex = await ws.place({ name: 'Annex' });
    expect(room).toMatchObject({
      parent: { id: floor1.id, name: 'Floor 1' },
      path: [
        { id: hq.id, name: 'HQ' },
        { id: floor1.id, name: 'Floor 1' },
      ],
      depth: 2,
      notes: 'Key at desk',
      children_count: 0,
    });
    const page = await locations.list(ws.key, {});
    expect(page.total).toBe(5);
    expect(page.data.map((place) => `${place.depth}:${place.name}`)).toEqual([
      '0:Annex',
      '0:HQ',
      '1:Floor 1',
      '2:Room 101',
      '1:Floor 2',
    ]);
    expect(page.data.find((place) => place.id === hq.id)?.children_count).toBe(2);
    const top = await locations.list(ws.key, { parent_id: 'top' });
    expect(top.data.map((place) => place.id)).toEqual([annex.id, hq.id]);
    const inHq = await locations.list(ws.key, { parent_id: hq.id });
    expect(inHq.data.map((place) => place.name)).toEqual(['Floor 1', 'Floor 2']);
    const searched = await locations.list(ws.key, { search: 'floor', pageSize: '1', page: '2' });
    expect(searched).toMatchObject({ total: 2, data: [{ id: floor2.id }] });
  });

  it('keeps names unique among siblings only, and refuses a name several places share', async () => {
    const ws = workspace();
    const east = await ws.place({ name: 'East wing' });
    const west = await ws.place({ name: 'West wing' });
    await ws.place({ name: 'Storage', parent_id: east.id });
    const clash = await domainRejection(ws.place({ name: 'storage', parent_id: east.id }));
    expect(clash.code).toBe('conflict');
    expect(clash.message).toContain('name: a place called storage is already in East wing');
    const westStorage = await ws.place({ name: 'Storage', parent_id: west.id });

    // v1's `location` by name: the one place of that name, else a new one at the top.
    const lobby = await ws.asset({ name: 'Kiosk', location: 'Lobby' });
    expect(lobby.location?.name).toBe('Lobby');
    const again = await ws.asset({ name: 'Kiosk 2', location: 'lobby' });
    expect(again.location?.id).toBe(lobby.location?.id);
    const ambiguous = await domainRejection(ws.asset({ name: 'Shelf', location: 'Storage' }));
    expect(ambiguous.code).toBe('invalid_input');
    expect(ambiguous.message).toContain('location: more than one place is called "Storage"');
    const byId = await ws.asset({ name: 'Shelf', location_id: westStorage.id });
    expect(byId.location).toEqual({ id: westStorage.id, name: 'Storage' });
    const both = await domainRejection(
      ws.editAsset(byId.id, { location: 'Lobby', location_id: westStorage.id }),
    );
    expect(both.message).toContain('location and location_id');
    const unknown = await domainRejection(ws.editAsset(byId.id, { location_id: 'loc_nope' }));
    expect(unknown).toMatchObject({ code: 'invalid_input' });
    expect(unknown.message).toContain('location_id: loc_nope is not a location of this workspace');
    const person = await people.create(
      ws.key,
      await received(CreatePersonInput, { full_name: 'Ada', location_id: east.id }),
    );
    expect(person.location).toEqual({ id: east.id, name: 'East wing' });
    // Another workspace's place is not found.
    const other = workspace();
    const theirs = await domainRejection(other.asset({ name: 'X', location_id: east.id }));
    expect(theirs.code).toBe('invalid_input');
  });

  it('moves a place with everything under it, never into itself or too deep', async () => {
    const ws = workspace();
    const site = await ws.place({ name: 'Site' });
    const building = await ws.place({ name: 'Building', parent_id: site.id });
    const floor = await ws.place({ name: 'Floor', parent_id: building.id });
    const room = await ws.place({ name: 'Room', parent_id: floor.id });
    const depot = await ws.place({ name: 'Depot' });
    await ws.asset({ name: 'Desk', location_id: room.id });
    await ws.asset({ name: 'Crate', location_id: depot.id });

    const cycle = await domainRejection(ws.move(site.id, { parent_id: room.id }));
    expect(cycle.code).toBe('invalid_input');
    expect(cycle.message).toContain('parent_id: Room');
    expect(cycle.message).toContain('is under Site');
    const self = await domainRejection(ws.move(floor.id, { parent_id: floor.id }));
    expect(self.message).toContain('parent_id: a place cannot be in itself');

    expect(await ws.assetNames({ location_id: site.id, include_children: 'true' })).toEqual({
      names: ['Desk'],
      total: 1,
    });
    expect((await ws.assetNames({ location_id: site.id })).total).toBe(0);
    const moved = await ws.move(building.id, { parent_id: depot.id, name: 'Building A' });
    expect(moved).toMatchObject({ name: 'Building A', parent: { id: depot.id }, depth: 1 });
    expect((await locations.get(ws.key, room.id)).path.map((place) => place.name)).toEqual([
      'Depot',
      'Building A',
      'Floor',
    ]);
    // The cached totals of the subtree filter follow the move (the trigger bumps the version).
    expect(await ws.assetNames({ location_id: site.id, include_children: 'true' })).toEqual({
      names: [],
      total: 0,
    });
    expect(await ws.assetNames({ location_id: depot.id, include_children: 'true' })).toEqual({
      names: ['Crate', 'Desk'],
      total: 2,
    });

    // Eight levels at most: a chain of 6 under Depot's 4 levels would make 10.
    let chain = await ws.place({ name: 'L1' });
    for (let level = 2; level <= 6; level += 1) {
      chain = await ws.place({ name: `L${level}`, parent_id: chain.id });
    }
    const deep = await domainRejection(ws.move(depot.id, { parent_id: chain.id }));
    expect(deep.message).toContain('parent_id: the tree would be 10 levels deep');
    await ws.place({ name: 'L7', parent_id: chain.id }).then((l7) =>
      ws.place({ name: 'L8', parent_id: l7.id }).then(async (l8) => {
        const ninth = await domainRejection(ws.place({ name: 'L9', parent_id: l8.id }));
        expect(ninth.message).toContain('at most 8');
      }),
    );
  });

  it('lets only one of two crossing moves through, so no loop is ever made', async () => {
    const ws = workspace();
    const a = await ws.place({ name: 'A' });
    const b = await ws.place({ name: 'B' });
    const outcomes = await Promise.allSettled([
      ws.move(a.id, { parent_id: b.id }),
      ws.move(b.id, { parent_id: a.id }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(String((refused as PromiseRejectedResult).reason)).toContain('parent_id:');
    const tops = await locations.list(ws.key, { parent_id: 'top' });
    expect(tops.total).toBe(1);
  });

  it('deletes only an empty place, saying what it holds; the bin gives its assets back placeless', async () => {
    const ws = workspace();
    const store1 = await ws.place({ name: 'Store' });
    const shelf = await ws.place({ name: 'Shelf', parent_id: store1.id });
    const drill = await ws.asset({ name: 'Drill', location_id: store1.id });
    await people.create(
      ws.key,
      await received(CreatePersonInput, { full_name: 'Bo', location_id: store1.id }),
    );
    const held = await domainRejection(locations.delete(ws.key, store1.id));
    expect(held.code).toBe('conflict');
    expect(held.message).toContain('holds 1 asset, 1 person and 1 place');

    const saw = await ws.asset({ name: 'Saw', location_id: shelf.id });
    await bin.delete(ws.key, saw.id);
    const gone = await locations.delete(ws.key, shelf.id);
    expect(gone).toMatchObject({ id: shelf.id, name: 'Shelf' });
    expect((await domainRejection(locations.get(ws.key, shelf.id))).code).toBe('not_found');
    const restored = await bin.restore(ws.key, saw.id);
    expect(restored.location).toBeNull();
    expect((await assets.get(ws.key, drill.id)).location?.id).toBe(store1.id);

    const log = await store.db.query<Array<{ action: string; record_name: string }>>(
      `SELECT action, record_name FROM register.activity
        WHERE workspace_id = $1 AND record_type = 'location' ORDER BY id`,
      [ws.key.workspaceId],
    );
    expect(log).toEqual([
      { action: 'created', record_name: 'Store' },
      { action: 'created', record_name: 'Shelf' },
      { action: 'deleted', record_name: 'Shelf' },
    ]);
  });

  it('filters people by location', async () => {
    const ws = workspace();
    const office = await ws.place({ name: 'Office' });
    await people.create(
      ws.key,
      await received(CreatePersonInput, { full_name: 'In', location_id: office.id }),
    );
    await people.create(ws.key, await received(CreatePersonInput, { full_name: 'Out' }));
    const page = (await people.list(
      ws.key,
      parseListQuery({ page: '1', location_id: office.id }, ['active', 'inactive'], {
        location: true,
      }),
    )) as Page<{ full_name: string }>;
    expect(page.data.map((person) => person.full_name)).toEqual(['In']);
  });
});
