import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  type AssetSummary,
  type CallerContext,
  CreateAssetInput,
  CreatePersonInput,
  type Page,
  type RawQuery,
  ScanAssetMessage,
  UpdateAssetInput,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
  type TestCallerOptions,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AssetBin } from './asset-bin';
import { AssetBinPurge } from './asset-bin-purge';
import { RESTORED_COLUMNS } from './asset.store';
import { parseAssetListQuery } from './asset-list-query';
import { AssetScanner } from './asset-scanner';
import { AssetsService } from './assets.service';

/** Soft delete and restore, scans and condition changes, on a fresh migrated database. */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;
let scanner: AssetScanner;

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
}, 30_000);

afterAll(() => store?.close());

function workspace(options: TestCallerOptions = {}) {
  const caller: CallerContext = testCaller(options);
  return {
    caller,
    id: caller.workspaceId,
    create: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    update: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
    get: (id: string) => assets.get(caller, id),
    list: async (query: RawQuery = { page: '1' }) =>
      (await assets.list(caller, parseAssetListQuery(query))) as Page<AssetSummary>,
    person: async (full_name: string) =>
      people.create(
        caller,
        await received(CreatePersonInput, { full_name, email: `${Date.now()}@example.com` }),
      ),
    delete: (id: string) => bin.delete(caller, id),
    restore: (id: string) => bin.restore(caller, id),
    deleted: () => bin.listDeleted(caller),
    scan: (code: string) => scanner.scan(caller, code),
  };
}

/** A value as it reads back from JSON (the outbox's data column). */
const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** `expect.stringMatching`, typed as the string it stands for. */
const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;

interface OutboxRow {
  event: string;
  data: Record<string, unknown>;
}

function events(workspaceId: string, like: string): Promise<OutboxRow[]> {
  return db.query(
    `SELECT event, data FROM register.outbox WHERE workspace_id = $1 AND event LIKE $2
      ORDER BY created_at, id`,
    [workspaceId, like],
  );
}

async function assetCount(workspaceId: string): Promise<number> {
  const [row] = await db.query<Array<{ asset_count: number }>>(
    `SELECT asset_count FROM register.workspace_counters WHERE workspace_id = $1`,
    [workspaceId],
  );
  return row?.asset_count ?? -1;
}

describe('soft delete and restore', () => {
  it('a deleted asset leaves fetches, lists and searches, frees its slot, and fires asset.deleted as it was', async () => {
    const ws = workspace();
    const kept = await ws.create({ name: 'Kept laptop' });
    const gone = await ws.create({
      name: 'Binned laptop',
      serial_number: 'SN-BIN-1',
      condition: 'fair',
      custom_fields: null,
    });
    expect(await assetCount(ws.id)).toBe(2);

    const deleted = await ws.delete(gone.id);
    expect(deleted).toEqual({
      id: gone.id,
      name: 'Binned laptop',
      asset_tag: gone.asset_tag,
      deleted_at: matching(/Z$/),
      purge_at: matching(/Z$/),
    });
    expect((await domainRejection(ws.get(gone.id))).code).toBe('not_found');
    expect((await ws.list()).data.map((asset) => asset.id)).toEqual([kept.id]);
    expect((await ws.list({ page: '1', search: 'binned' })).total).toBe(0);
    expect(await assetCount(ws.id)).toBe(1);
    expect(await ws.deleted()).toEqual([deleted]);
    expect(await events(ws.id, 'asset.deleted')).toEqual([
      { event: 'asset.deleted', data: asJson(gone) },
    ]);
    // A write to it now is a 404 like any unknown id.
    expect((await domainRejection(ws.update(gone.id, { name: 'x' }))).code).toBe('not_found');
    expect((await domainRejection(ws.delete(gone.id))).code).toBe('not_found');
  });

  it('a restore brings the same asset back with every field, takes a slot again and fires asset.restored', async () => {
    const ws = workspace();
    const original = await ws.create({
      name: 'Camera',
      serial_number: 'CAM-1',
      brand: 'Canon',
      category: 'Cameras',
      location: 'Studio',
      condition: 'good',
    });
    await ws.delete(original.id);
    const restored = await ws.restore(original.id);

    const { updated_at: before, ...same } = original;
    expect(restored).toEqual({ ...same, updated_at: matching(/Z$/) });
    expect(restored.updated_at >= before).toBe(true);
    expect(await ws.get(original.id)).toEqual(restored);
    expect(await ws.deleted()).toEqual([]);
    expect(await assetCount(ws.id)).toBe(1);
    expect((await ws.list({ page: '1', search: 'cam-1' })).total).toBe(1);
    const fired = await events(ws.id, 'asset.re%');
    expect(fired).toEqual([{ event: 'asset.restored', data: asJson(restored) }]);
  });

  it('refuses to delete a checked-out asset and changes nothing', async () => {
    const ws = workspace();
    const holder = await ws.person('Grace Hopper');
    const asset = await ws.create({ name: 'Badge reader', assigned_to_id: holder.id });
    const refusal = await domainRejection(ws.delete(asset.id));
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toBe(
      `Asset ${asset.id} is checked out to Grace Hopper; check it in before deleting it`,
    );
    expect(await ws.get(asset.id)).toEqual(asset);
    expect(await events(ws.id, 'asset.deleted')).toEqual([]);
  });

  it('a restore whose tag was taken meanwhile is refused, naming the tag and the asset holding it', async () => {
    const ws = workspace();
    const first = await ws.create({ name: 'First', asset_tag: 'TAG-1' });
    await ws.delete(first.id);
    const second = await ws.create({ name: 'Second', asset_tag: 'TAG-1' });
    const refusal = await domainRejection(ws.restore(first.id));
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toBe(
      `Asset ${first.id} cannot be restored: its asset_tag TAG-1 is now used by asset ` +
        `${second.id}; give that asset another tag first`,
    );
    expect((await ws.deleted()).map((asset) => asset.id)).toEqual([first.id]);
    await ws.update(second.id, { asset_tag: 'TAG-2' });
    expect((await ws.restore(first.id)).asset_tag).toBe('TAG-1');
  });

  it('a restore counts against the asset limit, and one taking the last slot fires plan.limit_reached', async () => {
    const ws = workspace({ limits: { assets: 2 } });
    const a = await ws.create({ name: 'A' });
    await ws.delete(a.id);
    await ws.create({ name: 'B' });
    const c = await ws.create({ name: 'C' });
    const refusal = await domainRejection(ws.restore(a.id));
    expect(refusal.code).toBe('limit_reached');
    expect(refusal.message).toBe('Asset limit of 2 reached on the pro plan');
    expect((await ws.deleted()).map((asset) => asset.id)).toEqual([a.id]);

    await ws.delete(c.id);
    const limitEvents = (await events(ws.id, 'plan.limit_reached')).length;
    await ws.restore(a.id);
    expect(await events(ws.id, 'plan.limit_reached')).toHaveLength(limitEvents + 1);
    expect(await assetCount(ws.id)).toBe(2);
  });

  it('restoring an asset that is not deleted is a conflict; an unknown or foreign id a 404', async () => {
    const ws = workspace();
    const other = workspace();
    const live = await ws.create({ name: 'Live' });
    const binned = await ws.create({ name: 'Binned' });
    await ws.delete(binned.id);

    const notDeleted = await domainRejection(ws.restore(live.id));
    expect([notDeleted.code, notDeleted.message]).toEqual([
      'conflict',
      `Asset ${live.id} is not deleted`,
    ]);
    expect((await domainRejection(ws.restore('ast_unknown'))).code).toBe('not_found');
    expect((await domainRejection(other.restore(binned.id))).code).toBe('not_found');
    expect((await domainRejection(other.delete(live.id))).code).toBe('not_found');
    expect(await other.deleted()).toEqual([]);
  });

  it('restores every stored column of register.assets (RESTORED_COLUMNS is the whole table)', async () => {
    const rows = await db.query<Array<{ column_name: string }>>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = 'register' AND table_name = 'assets' AND is_generated = 'NEVER'
          AND column_name <> 'updated_at'`,
    );
    expect(rows.map((row) => row.column_name).sort()).toEqual([...RESTORED_COLUMNS].sort());
  });
});

describe('the bin keeps BIN_RETENTION_DAYS, then purges', () => {
  const DAY = 86_400_000;

  it('says when each asset is purged, purges it then with a feed entry, and a restore finds nothing', async () => {
    const ws = workspace();
    const old = await ws.create({ name: 'Old laptop' });
    const recent = await ws.create({ name: 'Recent laptop' });
    const deleted = await ws.delete(old.id);
    await ws.delete(recent.id);
    expect(Date.parse(deleted.purge_at ?? '') - Date.parse(deleted.deleted_at)).toBe(30 * DAY);
    // The old one was deleted 31 days ago.
    await db.query(
      `UPDATE register.deleted_assets SET deleted_at = now() - interval '31 days' WHERE id = $1`,
      [old.id],
    );
    const purge = new AssetBinPurge(db, activity, { BIN_RETENTION_DAYS: 30 });
    expect(await purge.purge()).toBe(1);
    expect((await ws.deleted()).map((asset) => asset.id)).toEqual([recent.id]);
    expect((await domainRejection(ws.restore(old.id))).code).toBe('not_found');
    const [entry] = await db.query<Array<{ action: string; source: string; record_name: string }>>(
      `SELECT action, source, record_name FROM register.activity
        WHERE record_id = $1 AND action = 'purged'`,
      [old.id],
    );
    expect(entry).toEqual({ action: 'purged', source: 'system', record_name: 'Old laptop' });
    // Nothing more is due: a second run purges nothing; the recent one goes 30 days on.
    expect(await purge.purge()).toBe(0);
    expect(await purge.purge(new Date(Date.now() + 31 * DAY))).toBeGreaterThanOrEqual(1);
    expect(await ws.deleted()).toEqual([]);
  });

  it('keeps the bin for ever with BIN_RETENTION_DAYS=0, and says so (no purge date)', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Kept for ever' });
    const forever = new AssetBin(
      new ReadTransactions(db),
      new WriteTransactions(db),
      writer,
      activity,
      { BIN_RETENTION_DAYS: 0 },
    );
    const deleted = await forever.delete(ws.caller, asset.id);
    expect(deleted.purge_at).toBeNull();
    const purge = new AssetBinPurge(db, activity, { BIN_RETENTION_DAYS: 0 });
    expect(await purge.purge(new Date(Date.now() + 10_000 * DAY))).toBe(0);
    expect((await ws.deleted()).map((a) => a.id)).toEqual([asset.id]);
  });
});

describe('scans', () => {
  it('finds an asset by its tag in any case, records when, keeps updated_at and fires asset.scanned', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Projector', asset_tag: 'AT-PRJ-7' });
    const scanned = await ws.scan('  at-prj-7 ');
    expect(scanned.matched).toBe('asset_tag');
    expect(scanned.asset.id).toBe(asset.id);
    expect(scanned.asset.last_scanned_at).toMatch(/Z$/);
    expect(scanned.asset.updated_at).toBe(asset.updated_at);
    expect(await ws.get(asset.id)).toEqual(scanned.asset);
    expect(await events(ws.id, 'asset.scanned')).toEqual([
      {
        event: 'asset.scanned',
        data: {
          asset: asJson(scanned.asset),
          code: 'at-prj-7',
          matched: 'asset_tag',
          at: scanned.asset.last_scanned_at,
        },
      },
    ]);
  });

  it('falls back to the serial number, and says when a serial number is not unique', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Phone', serial_number: 'F17XQ' });
    expect((await ws.scan('f17xq')).matched).toBe('serial_number');
    expect((await ws.scan('F17XQ')).asset.id).toBe(asset.id);

    await ws.create({ name: 'Twin A', serial_number: 'DUP-9' });
    await ws.create({ name: 'Twin B', serial_number: 'DUP-9' });
    const refusal = await domainRejection(ws.scan('DUP-9'));
    expect([refusal.code, refusal.message]).toEqual([
      'conflict',
      'Several assets have the serial number DUP-9; scan or type their asset tag exactly',
    ]);
  });

  it('an exact-case tag wins over one that differs only in case', async () => {
    const ws = workspace();
    const upper = await ws.create({ name: 'Upper', asset_tag: 'CASE-1' });
    const lower = await ws.create({ name: 'Lower', asset_tag: 'case-1' });
    expect((await ws.scan('case-1')).asset.id).toBe(lower.id);
    expect((await ws.scan('CASE-1')).asset.id).toBe(upper.id);
    expect((await domainRejection(ws.scan('Case-1'))).code).toBe('conflict');
  });

  it('an unknown code, another workspace asset or a deleted one is not found, and nothing fires', async () => {
    const ws = workspace();
    const other = workspace();
    const foreign = await other.create({ name: 'Theirs', asset_tag: 'THEIRS-1' });
    const binned = await ws.create({ name: 'Binned', asset_tag: 'BIN-1' });
    await ws.delete(binned.id);
    for (const code of ['NOPE-1', foreign.asset_tag, 'BIN-1']) {
      const refusal = await domainRejection(ws.scan(code));
      expect([refusal.code, refusal.message]).toEqual([
        'not_found',
        `No asset has the asset tag or serial number ${code}`,
      ]);
    }
    expect(await events(ws.id, 'asset.scanned')).toEqual([]);
  });

  it('a blank code is refused by the message contract, naming code', async () => {
    const refusal = await domainRejection(
      received(ScanAssetMessage, { caller: testCaller(), code: '   ' }),
    );
    expect(refusal.code).toBe('invalid_input');
    expect(refusal.message).toMatch(/^code /);
  });
});

describe('condition', () => {
  it('a change fires asset.condition_changed with before and after beside asset.updated; the same value fires nothing', async () => {
    const ws = workspace();
    const asset = await ws.create({ name: 'Drill', condition: 'new' });
    expect(asset.condition).toBe('new');
    const worn = await ws.update(asset.id, { condition: 'poor' });
    expect(worn.condition).toBe('poor');
    await ws.update(asset.id, { condition: 'poor' });
    const cleared = await ws.update(asset.id, { condition: null });
    expect(cleared.condition).toBeNull();

    expect(await events(ws.id, 'asset.condition_changed')).toEqual([
      {
        event: 'asset.condition_changed',
        data: {
          asset: asJson(worn),
          from: 'new',
          to: 'poor',
          at: worn.updated_at,
        },
      },
      {
        event: 'asset.condition_changed',
        data: {
          asset: asJson(cleared),
          from: 'poor',
          to: null,
          at: cleared.updated_at,
        },
      },
    ]);
  });

  it('an unknown condition is refused naming the field and its values', async () => {
    const ws = workspace();
    const refusal = await domainRejection(ws.create({ name: 'X', condition: 'mint' }));
    expect(refusal.code).toBe('invalid_input');
    expect(refusal.message).toMatch(/^condition must be one of/);
    expect(refusal.message).toContain('broken');
  });
});
