import {
  AuditScanInput,
  CompleteAuditInput,
  CreateAssetInput,
  CreateAuditInput,
  type AssetDetail,
  type CallerContext,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, newId } from '@custodian/persistence';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { AssetScanner } from '../assets/asset-scanner';
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AuditJobs, type AuditJobsConfig } from './audit-jobs';
import { AuditsService } from './audits.service';

/**
 * Audits on a fresh migrated database: the expected set fixed at start, the outcome of each
 * scan and the live counts, repeat scans, completion (with its options) and cancellation, the
 * 409s, and the jobs' crash safety. The jobs run when the test says (ManualJobs: the same
 * runner without the kick after a commit), except in the test of the kick itself.
 */

/** The audits' jobs, run only by the test's calls (no kick, no poll). */
class ManualJobs extends AuditJobs {
  override kick(): void {
    // The test runs the jobs itself.
  }
}

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let scanner: AssetScanner;
let reads: ReadTransactions;
let writes: WriteTransactions;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const CONFIG: AuditJobsConfig = {
  AUDIT_BATCH_SIZE: 1_000,
  AUDIT_WRITE_BATCH_SIZE: 100,
  AUDIT_JOBS_POLL_MS: 60_000,
  AUDIT_JOB_STATEMENT_TIMEOUT_MS: 60_000,
};

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 16));
  db = store.db;
  reads = new ReadTransactions(db);
  writes = new WriteTransactions(db);
  assets = new AssetsService(reads, writes, writer, activity);
  scanner = new AssetScanner(writes, writer, activity);
}, 30_000);

afterAll(() => store?.close());

function jobsOf(config: Partial<AuditJobsConfig> = {}): ManualJobs {
  return new ManualJobs(db, writer, activity, assets, { ...CONFIG, ...config });
}

/** A workspace with a three-level tree (building > floor > room), a place outside it. */
async function workspace(jobs: AuditJobs = jobsOf()) {
  const key: CallerContext = testCaller();
  const audits = new AuditsService(reads, writes, activity, scanner, jobs);
  const place = async (name: string, parent: string | null) => {
    const id = newId('loc');
    await db.query(
      `INSERT INTO register.locations (id, workspace_id, name, parent_id) VALUES ($1, $2, $3, $4)`,
      [id, key.workspaceId, name, parent],
    );
    return id;
  };
  const building = await place('Building', null);
  const floor = await place('Floor 1', building);
  const room = await place('Room 101', floor);
  const elsewhere = await place('Warehouse', null);
  const asset = async (body: ClientBody<CreateAssetInput>) =>
    assets.create(key, await received(CreateAssetInput, body));
  return {
    key,
    audits,
    jobs,
    building,
    floor,
    room,
    elsewhere,
    asset,
    start: async (body: ClientBody<CreateAuditInput>) =>
      audits.create(key, await received(CreateAuditInput, body)),
    scan: async (id: string, body: ClientBody<AuditScanInput>) =>
      audits.scan(key, id, await received(AuditScanInput, body)),
    complete: async (id: string, body: ClientBody<CompleteAuditInput> = {}) =>
      audits.complete(key, id, await received(CompleteAuditInput, body)),
    /** 10 assets: 3 in the building, 3 on the floor, 4 in the room; 2 in the warehouse. */
    stock: async () => {
      const made: Record<string, AssetDetail[]> = { building: [], floor: [], room: [], out: [] };
      const spots = [
        ['building', building, 3],
        ['floor', floor, 3],
        ['room', room, 4],
        ['out', elsewhere, 2],
      ] as const;
      for (const [where, id, count] of spots) {
        for (let n = 0; n < count; n += 1) {
          made[where]?.push(
            await asset({ name: `${where} ${n}`, location_id: id, category: `Cat ${where}` }),
          );
        }
      }
      return made as Record<'building' | 'floor' | 'room' | 'out', AssetDetail[]>;
    },
  };
}

async function events(workspaceId: string, kind: string) {
  return db.query<Array<{ data: Record<string, unknown> }>>(
    `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = $2 ORDER BY id`,
    [workspaceId, kind],
  );
}

describe('audits', () => {
  it('fixes the expected set at start and counts found, missing, unexpected, misplaced', async () => {
    const ws = await workspace();
    const stock = await ws.stock();
    const audit = await ws.start({
      name: 'Building Q4',
      location_id: ws.building,
      include_children: true,
    });
    expect(audit).toMatchObject({
      status: 'starting',
      location: { id: ws.building, name: 'Building' },
      include_children: true,
      category: null,
      asset_count: null,
      progress: null,
    });
    expect(await ws.jobs.runPending()).toBe(1);
    const open = await ws.audits.get(ws.key, audit.id);
    expect(open).toMatchObject({ status: 'open', counts: { expected: 10, found: 0, missing: 10 } });
    expect(open.started_at).not.toBeNull();
    const started = await events(ws.key.workspaceId, 'audit.started');
    expect(started).toHaveLength(1);
    expect(started[0]?.data).toMatchObject({ id: audit.id, status: 'open' });

    // Fixed at start: an asset put in the room now is not expected.
    const late = await ws.asset({ name: 'Late', location_id: ws.room });
    const scansBefore = (await events(ws.key.workspaceId, 'asset.scanned')).length;

    const inside = [...stock.building, ...stock.floor, ...stock.room];
    for (const asset of inside.slice(0, 6)) {
      const { scan, created } = await ws.scan(audit.id, { asset_tag: asset.asset_tag });
      expect(created).toBe(true);
      expect(scan).toMatchObject({ outcome: 'found', repeated: false });
      expect(scan.location).toEqual({ id: ws.building, name: 'Building' });
    }
    // In the room at start, seen on the floor: misplaced.
    const moved = stock.room[3] as AssetDetail;
    const misplaced = await ws.scan(audit.id, { asset_id: moved.id, location_id: ws.floor });
    expect(misplaced.scan).toMatchObject({
      outcome: 'misplaced',
      location: { id: ws.floor, name: 'Floor 1' },
    });
    // Seen where it was: found.
    const unexpected = await ws.scan(audit.id, { asset_tag: late.asset_tag });
    expect(unexpected.scan.outcome).toBe('unexpected');

    // Again: the first scan, nothing counted or fired twice.
    const again = await ws.scan(audit.id, { asset_tag: (inside[0] as AssetDetail).asset_tag });
    expect(again.created).toBe(false);
    expect(again.scan).toMatchObject({ outcome: 'found', repeated: true });

    const counts = (await ws.audits.get(ws.key, audit.id)).counts;
    expect(counts).toEqual({ expected: 10, found: 7, missing: 3, unexpected: 1, misplaced: 1 });
    expect((await events(ws.key.workspaceId, 'asset.scanned')).length - scansBefore).toBe(8);
    const scanned = await assets.get(ws.key, moved.id);
    expect(scanned.last_scanned_at).not.toBeNull();

    const list = async (state: 'expected' | 'found' | 'missing' | 'unexpected' | 'misplaced') =>
      (await ws.audits.items(ws.key, audit.id, { state })).total;
    expect([
      await list('expected'),
      await list('found'),
      await list('missing'),
      await list('unexpected'),
      await list('misplaced'),
    ]).toEqual([10, 7, 3, 1, 1]);
    const missing = await ws.audits.items(ws.key, audit.id, { state: 'missing' });
    expect(missing.data.map((item) => item.asset.id).sort()).toEqual(
      inside
        .slice(6, 9)
        .map((asset) => asset.id)
        .sort(),
    );
    expect((await ws.audits.scans(ws.key, audit.id, {})).total).toBe(8);
    expect((await ws.audits.scans(ws.key, audit.id, { outcome: 'found' })).total).toBe(7);
    expect((await ws.audits.scans(ws.key, audit.id, { outcome: 'misplaced' })).total).toBe(1);

    // Without the places under it; by category; by listed assets.
    const top = await ws.start({ name: 'Lobby', location_id: ws.building });
    const byCategory = await ws.start({
      name: 'Warehouse stock',
      category_id: (await assets.get(ws.key, (stock.out[0] as AssetDetail).id)).category?.id,
    });
    const listed = await ws.start({
      name: 'Two',
      asset_ids: [(stock.out[0] as AssetDetail).id, (stock.room[0] as AssetDetail).id],
    });
    await ws.jobs.runPending();
    expect((await ws.audits.get(ws.key, top.id)).counts.expected).toBe(3);
    expect((await ws.audits.get(ws.key, byCategory.id)).counts.expected).toBe(2);
    const two = await ws.audits.get(ws.key, listed.id);
    expect(two).toMatchObject({ asset_count: 2, counts: { expected: 2 } });
    // Two audits over one place at once, each with its own scans.
    const other = await ws.scan(top.id, {
      asset_tag: (stock.building[0] as AssetDetail).asset_tag,
    });
    expect(other).toMatchObject({ created: true, scan: { outcome: 'found' } });
    // A place outside the audited one.
    const outside = await domainRejection(
      ws.scan(top.id, {
        asset_tag: (stock.building[1] as AssetDetail).asset_tag,
        location_id: ws.elsewhere,
      }),
    );
    expect(outside.code).toBe('invalid_input');
    expect(outside.message).toContain('location_id');
  });

  it('refuses a bad scope, unknown ids and past dates, naming the fields', async () => {
    const ws = await workspace();
    const two = await domainRejection(
      ws.start({ name: 'X', location_id: ws.building, category_id: `cat_${'0'.repeat(26)}` }),
    );
    expect(two.message).toContain('location_id, category_id, asset_ids');
    const none = await domainRejection(ws.start({ name: 'X' }));
    expect(none.code).toBe('invalid_input');
    const children = await domainRejection(
      ws.start({ name: 'X', asset_ids: [`ast_${'0'.repeat(26)}`], include_children: true }),
    );
    expect(children.message).toContain('include_children');
    const unknown = `loc_${'1'.repeat(26)}`;
    const place = await domainRejection(ws.start({ name: 'X', location_id: unknown }));
    expect(place).toMatchObject({
      code: 'invalid_input',
      message: `location_id: ${unknown} is not a location of this workspace`,
    });
    const category = await domainRejection(
      ws.start({ name: 'X', category_id: `cat_${'1'.repeat(26)}` }),
    );
    expect(category.message).toContain('is not a category of this workspace');
    const asset = await domainRejection(
      ws.start({ name: 'X', asset_ids: [`ast_${'1'.repeat(26)}`] }),
    );
    expect(asset.message).toContain('is not an asset of this workspace');
    const past = await domainRejection(
      ws.start({ name: 'X', location_id: ws.building, due_at: '2020-01-01T00:00:00Z' }),
    );
    expect(past.message).toContain('due_at');
    expect((await ws.audits.list(ws.key, {})).total).toBe(0);

    const audit = await ws.start({ name: 'Room', location_id: ws.room });
    // Not open yet: starting.
    const early = await domainRejection(ws.scan(audit.id, { asset_tag: 'AT-1' }));
    expect(early).toMatchObject({ code: 'conflict' });
    expect(early.message).toContain('is starting');
    await ws.jobs.runPending();
    const tag = await domainRejection(ws.scan(audit.id, { asset_tag: 'NOPE-1' }));
    expect(tag).toMatchObject({ code: 'not_found' });
    expect(tag.message).toContain('asset_tag:');
    const both = await domainRejection(ws.scan(audit.id, { asset_tag: 'A', serial_number: 'B' }));
    expect(both.code).toBe('invalid_input');
  });

  it('completes with both options: events per missing asset, moves, lost, then completed', async () => {
    const ws = await workspace();
    const stock = await ws.stock();
    const audit = await ws.start({ name: 'Floor', location_id: ws.floor, include_children: true });
    await ws.jobs.runPending();
    // 7 expected (floor 3, room 4): 4 found, one of them misplaced.
    const room = stock.room;
    const floor = stock.floor;
    await ws.scan(audit.id, { asset_id: (floor[0] as AssetDetail).id });
    await ws.scan(audit.id, { asset_id: (floor[1] as AssetDetail).id, location_id: ws.floor });
    await ws.scan(audit.id, { asset_id: (room[0] as AssetDetail).id, location_id: ws.room });
    await ws.scan(audit.id, { asset_id: (room[1] as AssetDetail).id, location_id: ws.floor });

    const completing = await ws.complete(audit.id, { move_found: true, mark_missing_lost: true });
    expect(completing).toMatchObject({
      status: 'completing',
      progress: { done: 0, total: 7 },
      completion: { move_found: true, mark_missing_lost: true },
    });
    const twice = await domainRejection(ws.complete(audit.id));
    expect(twice.code).toBe('conflict');
    expect(twice.message).toContain('is completing');
    await ws.jobs.runPending();

    const done = await ws.audits.get(ws.key, audit.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress: null,
      counts: { expected: 7, found: 4, missing: 3, unexpected: 0, misplaced: 1 },
    });
    expect(done.completed_at).not.toBeNull();
    const missing = await events(ws.key.workspaceId, 'audit.item_missing');
    expect(missing).toHaveLength(3);
    expect(missing[0]?.data).toMatchObject({
      audit: { id: audit.id, name: 'Floor' },
    });
    expect(String((missing[0]?.data.expected_location as { id: string }).id)).toMatch(/^loc_/);
    const completed = await events(ws.key.workspaceId, 'audit.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]?.data).toMatchObject({ status: 'completed', counts: { missing: 3 } });

    // The misplaced one moved to the floor; the others stay; the missing ones are lost.
    expect((await assets.get(ws.key, (room[1] as AssetDetail).id)).location?.id).toBe(ws.floor);
    expect((await assets.get(ws.key, (room[0] as AssetDetail).id)).location?.id).toBe(ws.room);
    for (const asset of [floor[2], room[2], room[3]] as AssetDetail[]) {
      expect((await assets.get(ws.key, asset.id)).status).toBe('lost');
    }
    expect((await assets.get(ws.key, (floor[0] as AssetDetail).id)).status).toBe('active');
    const feed = await db.query<Array<{ record_id: string; related_name: string }>>(
      `SELECT record_id, related_name FROM register.activity
        WHERE workspace_id = $1 AND related_id = $2`,
      [ws.key.workspaceId, audit.id],
    );
    expect(feed).toHaveLength(4);
    expect(feed.every((entry) => entry.related_name === 'Floor')).toBe(true);
    const own = await db.query<Array<{ action: string }>>(
      `SELECT action FROM register.activity WHERE workspace_id = $1 AND record_id = $2
        ORDER BY id`,
      [ws.key.workspaceId, audit.id],
    );
    expect(own.map((entry) => entry.action)).toEqual(['started', 'completed']);

    // Completed: no more scans, completions or cancels.
    for (const work of [
      () => ws.complete(audit.id),
      () => ws.audits.cancel(ws.key, audit.id),
      () => ws.scan(audit.id, { asset_id: (room[2] as AssetDetail).id }),
    ]) {
      expect((await domainRejection(work())).code).toBe('conflict');
    }
  });

  it('cancels an open audit without missing-item events; then refuses the rest', async () => {
    const ws = await workspace();
    await ws.stock();
    const audit = await ws.start({ name: 'Room', location_id: ws.room });
    await ws.jobs.runPending();
    const cancelled = await ws.audits.cancel(ws.key, audit.id);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled.cancelled_at).not.toBeNull();
    await ws.jobs.runPending();
    expect(await events(ws.key.workspaceId, 'audit.item_missing')).toHaveLength(0);
    expect(await events(ws.key.workspaceId, 'audit.completed')).toHaveLength(0);
    for (const work of [() => ws.complete(audit.id), () => ws.audits.cancel(ws.key, audit.id)]) {
      const refused = await domainRejection(work());
      expect(refused.code).toBe('conflict');
      expect(refused.message).toContain('is cancelled');
    }
    // A starting one can be cancelled too; its job then has nothing to do.
    const starting = await ws.start({ name: 'Again', location_id: ws.room });
    await ws.audits.cancel(ws.key, starting.id);
    expect(await ws.jobs.runPending()).toBe(0);
    expect(await events(ws.key.workspaceId, 'audit.started')).toHaveLength(1);
  });

  it('counts scans that race: each asset once, no count lost', async () => {
    const ws = await workspace();
    const stock = await ws.stock();
    const audit = await ws.start({
      name: 'Race',
      location_id: ws.building,
      include_children: true,
    });
    await ws.jobs.runPending();
    const inside = [...stock.building, ...stock.floor, ...stock.room];
    // Eight different assets at once, and the ninth five times at once.
    const ninth = inside[8] as AssetDetail;
    const results = await Promise.all([
      ...inside.slice(0, 8).map((asset) => ws.scan(audit.id, { asset_id: asset.id })),
      ...Array.from({ length: 5 }, () => ws.scan(audit.id, { asset_tag: ninth.asset_tag })),
      // And one not expected, twice at once.
      ...Array.from({ length: 2 }, () =>
        ws.scan(audit.id, { asset_id: (stock.out[0] as AssetDetail).id }),
      ),
    ]);
    expect(results.filter((result) => result.created)).toHaveLength(10);
    expect((await ws.audits.get(ws.key, audit.id)).counts).toEqual({
      expected: 10,
      found: 9,
      missing: 1,
      unexpected: 1,
      misplaced: 0,
    });
  });

  it('resumes a completion after a restart and writes no event twice', async () => {
    const ws = await workspace(jobsOf({ AUDIT_BATCH_SIZE: 4 }));
    const stock = await ws.stock();
    const audit = await ws.start({
      name: 'Everything',
      location_id: ws.building,
      include_children: true,
    });
    await ws.jobs.runPending();
    await ws.scan(audit.id, { asset_id: (stock.room[0] as AssetDetail).id });
    await ws.complete(audit.id);
    // One batch of 4 (of 10 expected: 9 missing) commits, then the replica dies.
    expect(await ws.jobs.step()).toBe('batch');
    expect(await events(ws.key.workspaceId, 'audit.item_missing')).toHaveLength(4);
    expect(await ws.audits.get(ws.key, audit.id)).toMatchObject({
      status: 'completing',
      progress: { done: 4, total: 10 },
    });
    // A batch that fails half-way is rolled back whole (its events with it).
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`SELECT id FROM register.audits WHERE id = $1 FOR UPDATE`, [audit.id]);
        await writer.write(tx, ws.key.workspaceId, 'audit.item_missing', {
          audit: { id: audit.id, name: 'Everything' },
          asset: { id: 'ast_x', name: 'x', asset_tag: 'x' },
          expected_location: null,
        });
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    // Two replicas after the restart: they share the rest, nothing twice.
    const [a, b] = [jobsOf({ AUDIT_BATCH_SIZE: 2 }), jobsOf({ AUDIT_BATCH_SIZE: 2 })];
    await Promise.all([a.runPending(), b.runPending()]);
    const missing = await events(ws.key.workspaceId, 'audit.item_missing');
    expect(missing).toHaveLength(9);
    const ids = new Set(missing.map((row) => (row.data.asset as { id: string }).id));
    expect(ids.size).toBe(9);
    expect(await events(ws.key.workspaceId, 'audit.completed')).toHaveLength(1);
    expect(await ws.audits.get(ws.key, audit.id)).toMatchObject({
      status: 'completed',
      counts: { expected: 10, found: 1, missing: 9 },
    });
  });

  it('opens a small audit within milliseconds of its start (the kick after commit)', async () => {
    const jobs = new AuditJobs(db, writer, activity, assets, CONFIG);
    const ws = await workspace(jobs);
    await ws.stock();
    const audit = await ws.start({ name: 'Quick', location_id: ws.room });
    const began = Date.now();
    let status = audit.status;
    while (status !== 'open' && Date.now() - began < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      status = (await ws.audits.get(ws.key, audit.id)).status;
    }
    expect(status).toBe('open');
    expect(Date.now() - began).toBeLessThan(1_000);
    await jobs.beforeApplicationShutdown();
  });
});
