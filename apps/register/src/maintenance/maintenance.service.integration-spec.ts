import {
  CreateAssetInput,
  CreateMaintenanceInput,
  ResolveMaintenanceInput,
  UpdateAssetInput,
  UpdateMaintenanceInput,
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
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { RemindersService } from '../reminders/reminders.service';
import { MaintenanceService, firstRepeat } from './maintenance.service';

/**
 * Maintenance records on a fresh migrated database: logging, listing, changing, resolving once,
 * and the asset's status taken and given back in the same transaction (asset.updated beside
 * maintenance.*), also with two records of one asset and resolves racing.
 */

let store: MigratedDatabase;
let db: DataSource;
let maintenance: MaintenanceService;
let assets: AssetsService;
let bin: AssetBin;
let reminders: RemindersService;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 16));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  assets = new AssetsService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
  reminders = new RemindersService(reads, writes, activity);
  maintenance = new MaintenanceService(reads, writes, writer, activity, assets, reminders);
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const key: CallerContext = testCaller();
  return {
    key,
    asset: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(key, await received(CreateAssetInput, body)),
    log: async (assetId: string, body: ClientBody<CreateMaintenanceInput>) =>
      maintenance.create(key, assetId, await received(CreateMaintenanceInput, body)),
    update: async (id: string, body: ClientBody<UpdateMaintenanceInput>) =>
      maintenance.update(key, id, await received(UpdateMaintenanceInput, body)),
    resolve: async (id: string, body: ClientBody<ResolveMaintenanceInput> = {}) =>
      maintenance.resolve(key, id, await received(ResolveMaintenanceInput, body)),
    status: async (assetId: string) => (await assets.get(key, assetId)).status,
  };
}

/** The workspace's events of these kinds, oldest first, with their data. */
async function events(
  workspaceId: string,
): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const rows = await db.query<Array<{ event: string; data: Record<string, unknown> }>>(
    `SELECT event, data FROM register.outbox
      WHERE workspace_id = $1 AND (event LIKE 'maintenance.%' OR event = 'asset.updated')
      ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows;
}

describe('maintenance records', () => {
  it('makes its repeating reminder about the asset in the same transaction', async () => {
    const ws = workspace();
    const forklift = await ws.asset({ name: 'Forklift' });
    const record = await ws.log(forklift.id, {
      title: 'Service the forklift',
      type: 'service',
      scheduled_for: '2099-01-15',
      repeat: { every: 6, unit: 'month' },
    });
    expect(record.reminder_id).toMatch(/^rem_/);
    const reminder = await reminders.get(ws.key, record.reminder_id ?? '');
    expect(reminder).toMatchObject({
      title: 'Service the forklift',
      status: 'scheduled',
      due_at: '2099-07-15T09:00:00.000Z',
      next_due_at: '2100-01-15T09:00:00.000Z',
      repeat: { every: 6, unit: 'month' },
      asset: { id: forklift.id, name: 'Forklift' },
    });
    // Without a day planned: six months from now; a day long past: the first still ahead.
    const now = new Date('2027-03-10T12:00:00.000Z');
    expect(firstRepeat(null, { every: 6, unit: 'month' }, now).toISOString()).toBe(
      '2027-09-10T12:00:00.000Z',
    );
    expect(firstRepeat('2025-01-01', { every: 6, unit: 'month' }, now).toISOString()).toBe(
      '2027-07-01T09:00:00.000Z',
    );
    // A bad repeat is refused with nothing written.
    const before = (await maintenance.list(ws.key, {})).total;
    await expect(
      ws.log(forklift.id, { title: 'X', type: 'service', repeat: { every: 0, unit: 'month' } }),
    ).rejects.toThrow('repeat.every must not be less than 1');
    expect((await maintenance.list(ws.key, {})).total).toBe(before);
  });

  it('logs, changes and resolves a record, each in the feed, with maintenance.* events', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'MacBook Pro' });
    const made = await ws.log(asset.id, {
      title: '  Battery replacement ',
      type: 'repair',
      notes: 'Swollen battery',
      scheduled_for: '2026-12-02',
      cost: '189.00',
    });
    expect(made).toMatchObject({
      title: 'Battery replacement',
      type: 'repair',
      notes: 'Swollen battery',
      scheduled_for: '2026-12-02',
      cost: '189.00',
      status: 'open',
      asset_status_before: null,
      resolved_at: null,
      resolution_notes: null,
      asset: { id: asset.id, name: 'MacBook Pro', asset_tag: asset.asset_tag },
    });
    expect(made.id).toMatch(/^mnt_[0-9a-z]{26}$/);
    // Without set_asset_status the asset is left as it is.
    expect(await ws.status(asset.id)).toBe('active');

    const changed = await ws.update(made.id, { type: 'service', cost: null, notes: null });
    expect(changed).toMatchObject({ type: 'service', cost: null, notes: null, status: 'open' });
    expect(await ws.update(made.id, { type: 'service' })).toEqual(changed);

    const resolved = await ws.resolve(made.id, { notes: 'Replaced', cost: '210.50' });
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolution_notes: 'Replaced',
      cost: '210.50',
    });
    expect(resolved.resolved_at).not.toBeNull();
    expect(await maintenance.get(ws.key, made.id)).toEqual(resolved);
    expect((await events(ws.key.workspaceId)).map((e) => e.event)).toEqual([
      'maintenance.created',
      'maintenance.resolved',
    ]);
    const feed = await db.query<
      Array<{ action: string; related_id: string; related_name: string; source: string }>
    >(
      `SELECT action, related_id, related_name, source FROM register.activity
        WHERE workspace_id = $1 AND record_type = 'maintenance' AND record_id = $2
        ORDER BY at, id`,
      [ws.key.workspaceId, made.id],
    );
    expect(feed.map((entry) => entry.action)).toEqual(['created', 'updated', 'resolved']);
    expect(feed[2]).toMatchObject({
      related_id: asset.id,
      related_name: 'MacBook Pro',
      source: 'api',
    });
  });

  it('resolving twice is a 409 naming the record; a resolve without cost keeps it', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Printer' });
    const made = await ws.log(asset.id, { title: 'Toner', type: 'service', cost: '40.00' });
    expect((await ws.resolve(made.id)).cost).toBe('40.00');
    const again = await domainRejection(ws.resolve(made.id, { notes: 'again' }));
    expect(again.code).toBe('conflict');
    expect(again.message).toContain(made.id);
    expect((await maintenance.get(ws.key, made.id)).resolution_notes).toBeNull();
  });

  it('puts the asset in maintenance and back in the same transactions, with asset.updated', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Forklift', status: 'retired' });
    const made = await ws.log(asset.id, {
      title: 'Hydraulics',
      type: 'repair',
      set_asset_status: true,
    });
    expect(made.asset_status_before).toBe('retired');
    expect(await ws.status(asset.id)).toBe('maintenance');
    await ws.resolve(made.id);
    expect(await ws.status(asset.id)).toBe('retired');
    const seen = await events(ws.key.workspaceId);
    expect(seen.map((e) => `${e.event}:${String(e.data.status)}`)).toEqual([
      'asset.updated:maintenance',
      'maintenance.created:open',
      'asset.updated:retired',
      'maintenance.resolved:resolved',
    ]);
  });

  it('gives the status back only when the last record holding it is resolved', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Van' });
    const first = await ws.log(asset.id, {
      title: 'Brakes',
      type: 'repair',
      set_asset_status: true,
    });
    const second = await ws.log(asset.id, {
      title: 'MOT',
      type: 'inspection',
      set_asset_status: true,
    });
    // The second found it in maintenance, held by the first: it shares the status to go back to.
    expect(second.asset_status_before).toBe('active');
    await ws.resolve(first.id);
    expect(await ws.status(asset.id)).toBe('maintenance');
    await ws.resolve(second.id);
    expect(await ws.status(asset.id)).toBe('active');
    expect(
      (await events(ws.key.workspaceId)).filter((e) => e.event === 'asset.updated'),
    ).toHaveLength(2);
  });

  it('leaves a status changed by hand meanwhile, and one set to maintenance by hand', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Drill' });
    const made = await ws.log(asset.id, { title: 'Chuck', type: 'repair', set_asset_status: true });
    await assets.update(ws.key, asset.id, await received(UpdateAssetInput, { status: 'lost' }));
    await ws.resolve(made.id);
    expect(await ws.status(asset.id)).toBe('lost');

    const byHand = await ws.asset({ name: 'Saw', status: 'maintenance' });
    const record = await ws.log(byHand.id, {
      title: 'Blade',
      type: 'upgrade',
      set_asset_status: true,
    });
    expect(record.asset_status_before).toBeNull();
    await ws.resolve(record.id);
    expect(await ws.status(byHand.id)).toBe('maintenance');
  });

  it('restores the status once when two records of one asset are resolved at once', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Lathe', status: 'inactive' });
    const a = await ws.log(asset.id, { title: 'A', type: 'repair', set_asset_status: true });
    const b = await ws.log(asset.id, { title: 'B', type: 'repair', set_asset_status: true });
    await Promise.all([ws.resolve(a.id), ws.resolve(b.id)]);
    expect(await ws.status(asset.id)).toBe('inactive');
    const updates = (await events(ws.key.workspaceId)).filter((e) => e.event === 'asset.updated');
    expect(updates.map((e) => e.data.status)).toEqual(['maintenance', 'inactive']);
  });

  it('lists by workspace and by asset, open or resolved, newest first and paged', async () => {
    const ws = workspace();
    const one = await ws.asset({ name: 'One' });
    const two = await ws.asset({ name: 'Two' });
    const r1 = await ws.log(one.id, { title: 'r1', type: 'repair' });
    const r2 = await ws.log(two.id, { title: 'r2', type: 'service' });
    const r3 = await ws.log(one.id, { title: 'r3', type: 'inspection' });
    await ws.resolve(r1.id);
    const all = await maintenance.list(ws.key, {});
    expect(all.data.map((r) => r.title)).toEqual(['r3', 'r2', 'r1']);
    expect(all.total).toBe(3);
    expect((await maintenance.list(ws.key, { status: 'open' })).data.map((r) => r.id)).toEqual([
      r3.id,
      r2.id,
    ]);
    expect((await maintenance.list(ws.key, { status: 'resolved' })).data.map((r) => r.id)).toEqual([
      r1.id,
    ]);
    expect((await maintenance.list(ws.key, { asset_id: one.id })).data.map((r) => r.id)).toEqual([
      r3.id,
      r1.id,
    ]);
    const ofTwo = await maintenance.listOfAsset(ws.key, two.id, {});
    expect(ofTwo.data.map((r) => r.id)).toEqual([r2.id]);
    const paged = await maintenance.list(ws.key, { page: '2', pageSize: '2' });
    expect(paged).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(paged.data.map((r) => r.id)).toEqual([r1.id]);
    const bad = await domainRejection(maintenance.list(ws.key, { pageSize: '500' }));
    expect(bad).toMatchObject({ code: 'invalid_input' });
    expect(bad.message).toContain('pageSize');
  });

  it('keeps workspaces apart: another workspace’s record or asset is not found', async () => {
    const ws = workspace();
    const other = workspace();
    const asset = await ws.asset({ name: 'Mine' });
    const made = await ws.log(asset.id, { title: 'Mine', type: 'repair' });
    for (const work of [
      maintenance.get(other.key, made.id),
      other.update(made.id, { title: 'Theirs' }),
      other.resolve(made.id),
      other.log(asset.id, { title: 'x', type: 'repair' }),
      maintenance.listOfAsset(other.key, asset.id, {}),
    ]) {
      expect((await domainRejection(work)).code).toBe('not_found');
    }
    expect((await maintenance.list(other.key, {})).total).toBe(0);
    // Ids no record has, a NUL among them: not found, or nothing listed; never a database error.
    for (const id of ['\u0000', 'x'.repeat(65)]) {
      expect((await domainRejection(maintenance.listOfAsset(ws.key, id, {}))).code).toBe(
        'not_found',
      );
      expect((await domainRejection(maintenance.get(ws.key, id))).code).toBe('not_found');
      expect((await maintenance.list(ws.key, { asset_id: id })).total).toBe(0);
    }
    expect((await maintenance.list(other.key, { asset_id: asset.id })).total).toBe(0);
  });

  it('refuses a bad body naming the field', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Bad' });
    const cases: Array<[ClientBody<CreateMaintenanceInput>, string]> = [
      [{ type: 'repair' }, 'title'],
      [{ title: ' ', type: 'repair' }, 'title'],
      [{ title: 'x', type: 'polish' }, 'type'],
      [{ title: 'x', type: 'repair', cost: '12.345' }, 'cost'],
      [{ title: 'x', type: 'repair', scheduled_for: '2026-13-01' }, 'scheduled_for'],
      [{ title: 'x', type: 'repair', set_asset_status: 'yes' }, 'set_asset_status'],
    ];
    for (const [body, field] of cases) {
      const refused = await domainRejection(ws.log(asset.id, body));
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).toContain(field);
    }
  });

  it('an asset in the bin: a new record is a 404, resolving one is a 409, reading it works', async () => {
    const ws = workspace();
    const asset = await ws.asset({ name: 'Binned' });
    const made = await ws.log(asset.id, {
      title: 'Screen',
      type: 'repair',
      set_asset_status: true,
    });
    await bin.delete(ws.key, asset.id);
    expect((await domainRejection(ws.log(asset.id, { title: 'x', type: 'repair' }))).code).toBe(
      'not_found',
    );
    const refused = await domainRejection(ws.resolve(made.id));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('bin');
    expect((await maintenance.get(ws.key, made.id)).asset.name).toBe('Binned');
    await bin.restore(ws.key, asset.id);
    await ws.resolve(made.id);
    expect(await ws.status(asset.id)).toBe('active');
  });
});
