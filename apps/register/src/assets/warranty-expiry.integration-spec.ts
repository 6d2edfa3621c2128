import {
  CreateAssetInput,
  UpdateAssetInput,
  type AssetSummary,
  type CallerContext,
  type Page,
  type WarrantyNotice,
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
import { registerDataSource } from '../database/data-source';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { migrateRegister } from '../migrate';
import { dayEndsAt } from '../notices/expiry-notices';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AssetBin } from './asset-bin';
import { parseAssetListQuery } from './asset-list-query';
import { AssetsService } from './assets.service';
import { AssignmentOverdue } from './assignment-overdue';
import { WarrantyExpiryDueDates } from './warranty-expiry';

/**
 * Warranties on a fresh migrated database, with the clock passed in: the dates on the asset,
 * the list filter, and warranty.expiring / warranty.expired fired once each on the due-date
 * engine (the rules of notices/expiry-notices.ts, as licences have them), re-armed by a new
 * date, silenced by the bin, and left apart from a check-out's overdue notice.
 */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let bin: AssetBin;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const DAY = 86_400_000;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  assets = new AssetsService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
}, 30_000);

afterAll(() => store?.close());

function engine(): DueDateEngine {
  const made = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new WarrantyExpiryDueDates(made, writer, activity).onModuleInit();
  new AssignmentOverdue(made, writer, activity).onModuleInit();
  return made;
}

/** A day `days` from today (UTC). */
function day(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

/** What fired for this workspace: `event:days_left`, in order. */
async function fired(workspaceId: string): Promise<string[]> {
  const rows = await db.query<Array<{ event: string; data: WarrantyNotice }>>(
    `SELECT event, data FROM register.outbox
      WHERE workspace_id = $1 AND event LIKE 'warranty.%' ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map((row) => `${row.event}:${row.data.days_left}`);
}

function workspace() {
  const caller: CallerContext = testCaller();
  return {
    caller,
    id: caller.workspaceId,
    create: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    update: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
    list: async (query: Record<string, string>) =>
      (await assets.list(
        caller,
        parseAssetListQuery({ page: '1', ...query }),
      )) as Page<AssetSummary>,
  };
}

describe('warranties', () => {
  it('keeps the dates on the asset, refuses a warranty ending before the purchase', async () => {
    const ws = workspace();
    const made = await ws.create({
      name: 'ThinkPad',
      purchase_date: '2026-01-15',
      warranty_expires_on: '2029-01-14',
    });
    expect(made).toMatchObject({ purchase_date: '2026-01-15', warranty_expires_on: '2029-01-14' });
    const refused = await domainRejection(
      ws.update(made.id, { warranty_expires_on: '2025-12-31' }),
    );
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toMatch(
      /^warranty_expires_on \(2025-12-31\) must not be before purchase_date \(2026-01-15\)$/,
    );
    expect((await ws.list({})).data[0]).toMatchObject({ id: made.id });
    const changed = await ws.update(made.id, { purchase_date: null });
    expect(changed).toMatchObject({ purchase_date: null, warranty_expires_on: '2029-01-14' });
    const [entry] = await db.query<Array<{ changes: Array<{ field: string }> }>>(
      `SELECT changes FROM register.activity WHERE record_id = $1 AND action = 'updated'`,
      [made.id],
    );
    expect(entry?.changes.map((change) => change.field)).toEqual(['purchase_date']);
  });

  it('lists the assets whose warranty ends before a day, and counts them anew after a change', async () => {
    const ws = workspace();
    const soon = await ws.create({ name: 'Soon', warranty_expires_on: day(10) });
    const later = await ws.create({ name: 'Later', warranty_expires_on: day(400) });
    await ws.create({ name: 'None' });
    const before = day(60);
    const first = await ws.list({ warranty_expires_before: before });
    expect(first.data.map((asset) => asset.name)).toEqual(['Soon']);
    expect(first.total).toBe(1);
    // A moved date changes the list (and its cached total) at once.
    await ws.update(later.id, { warranty_expires_on: day(30) });
    const second = await ws.list({ warranty_expires_before: before });
    expect(second.data.map((asset) => asset.id)).toEqual([soon.id, later.id]);
    expect(second.total).toBe(2);
    expect(() => parseAssetListQuery({ warranty_expires_before: '2027-02-30' })).toThrow(
      'warranty_expires_before must be a date (YYYY-MM-DD)',
    );
  });

  it('fires at 30 and 7 days and on the day, each once, with two engines at once', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Dell XPS', warranty_expires_on: day(45) });
    const ends = dayEndsAt(made.warranty_expires_on ?? '');
    const at = (daysBefore: number) => new Date(ends.getTime() - daysBefore * DAY + 60_000);
    await engine().runDue(new Date());
    expect(await fired(ws.id)).toEqual([]);
    await Promise.all([engine().runDue(at(30)), engine().runDue(at(30))]);
    await engine().runDue(at(7));
    await engine().runDue(at(0));
    await Promise.all([engine().runDue(at(-2)), engine().runDue(at(-2))]);
    expect(await fired(ws.id)).toEqual([
      'warranty.expiring:30',
      'warranty.expiring:7',
      'warranty.expired:0',
    ]);
    const [event] = await db.query<Array<{ data: WarrantyNotice }>>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'warranty.expired'`,
      [ws.id],
    );
    expect(event?.data).toEqual({
      asset: { id: made.id, name: 'Dell XPS', asset_tag: made.asset_tag },
      expires_on: made.warranty_expires_on,
      days_left: 0,
    });
    const entries = await db.query<Array<{ action: string; source: string }>>(
      `SELECT action, source FROM register.activity WHERE record_id = $1 AND source = 'system'
        ORDER BY at, id`,
      [made.id],
    );
    expect(entries.map((entry) => entry.action)).toEqual([
      'warranty_expiring',
      'warranty_expiring',
      'warranty_expired',
    ]);
  });

  it('fires a threshold already reached at once; a new date re-arms; other changes leave them be', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Printer', warranty_expires_on: day(20) });
    await engine().runDue(new Date(Date.now() + 1_000));
    expect(await fired(ws.id)).toEqual([expect.stringMatching(/^warranty\.expiring:2[01]$/)]);
    // Extended by a year: the old date never fires; the new one's 30 days do.
    await ws.update(made.id, { warranty_expires_on: day(385) });
    await engine().runDue(new Date(dayEndsAt(day(20)).getTime() + DAY));
    expect(await fired(ws.id)).toHaveLength(1);
    await engine().runDue(new Date(dayEndsAt(day(385)).getTime() - 30 * DAY + 1_000));
    expect((await fired(ws.id)).slice(1)).toEqual(['warranty.expiring:30']);
    // Cleared: the warranty's notices go, an unrelated change leaves them be.
    await ws.update(made.id, { name: 'Printer 2' });
    const armed = await db.query<Array<{ kind: string }>>(
      `SELECT kind FROM register.due_notices WHERE subject_id = $1 AND fired_at IS NULL
          AND cancelled_at IS NULL ORDER BY kind`,
      [made.id],
    );
    expect(armed.map((notice) => notice.kind)).toEqual(['warranty.expired', 'warranty.expiring']);
    await ws.update(made.id, { warranty_expires_on: null });
    await engine().runDue(new Date(dayEndsAt(day(385)).getTime() + DAY));
    expect(await fired(ws.id)).toHaveLength(2);
  });

  it('is silent in the bin; a restore tells only what is still ahead, nothing twice', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Monitor', warranty_expires_on: day(20) });
    const ends = dayEndsAt(made.warranty_expires_on ?? '');
    await engine().runDue(new Date(Date.now() + 1_000));
    expect(await fired(ws.id)).toHaveLength(1);
    await bin.delete(ws.caller, made.id);
    await engine().runDue(new Date(ends.getTime() - 7 * DAY + 1_000));
    expect(await fired(ws.id)).toHaveLength(1);
    await bin.restore(ws.caller, made.id);
    await engine().runDue(new Date(Date.now() + 1_000));
    expect(await fired(ws.id)).toHaveLength(1);
    await engine().runDue(new Date(ends.getTime() - 7 * DAY + 2_000));
    await engine().runDue(new Date(ends.getTime() + 1_000));
    expect((await fired(ws.id)).slice(1)).toEqual(['warranty.expiring:7', 'warranty.expired:0']);
  });
});
