import {
  CreateLicenseInput,
  UpdateLicenseInput,
  UpdateNoticeSettingsInput,
  type CallerContext,
  type LicenseExpiry,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { developmentSecretKeys } from '@custodian/secret-cipher';
import {
  createMigratedDatabase,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { migrateRegister } from '../migrate';
import { NoticesService } from '../notices/notices.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { dayEndsAt } from '../notices/expiry-notices';
import { LicenseExpiryDueDates } from './license-expiry';
import { LicenseKeyCipher } from './license-key-cipher';
import { LicensesService } from './licenses.service';

/**
 * Licence expiry on the due-date engine, on a fresh migrated database, with the clock passed
 * in: each threshold and the expiry fire once, a date set inside a threshold fires the nearest
 * at once, a changed date re-arms, the bin silences, and two engines at once fire nothing twice.
 */

let store: MigratedDatabase;
let db: DataSource;
let licenses: LicensesService;
let notices: NoticesService;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const DAY = 86_400_000;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 12));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  licenses = new LicensesService(
    reads,
    writes,
    writer,
    activity,
    new LicenseKeyCipher({ LICENSE_KEY_SECRETS: developmentSecretKeys('LICENSE_KEY_SECRETS') }),
  );
  notices = new NoticesService(reads, writes);
}, 30_000);

afterAll(() => store?.close());

function engine(): DueDateEngine {
  const made = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new LicenseExpiryDueDates(made, writer, activity).onModuleInit();
  return made;
}

/** A day `days` from today (UTC), as `expires_on`. */
function day(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
}

/** What fired for this workspace: `event:days_left`, in order. */
async function fired(workspaceId: string): Promise<string[]> {
  const rows = await db.query<Array<{ event: string; data: LicenseExpiry }>>(
    `SELECT event, data FROM register.outbox
      WHERE workspace_id = $1 AND event IN ('license.expiring', 'license.expired')
      ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map((row) => `${row.event}:${row.data.days_left}`);
}

function workspace() {
  const key: CallerContext = testCaller();
  return {
    key,
    create: async (body: ClientBody<CreateLicenseInput>) =>
      licenses.create(key, await received(CreateLicenseInput, body)),
    update: async (id: string, body: ClientBody<UpdateLicenseInput>) =>
      licenses.update(key, id, await received(UpdateLicenseInput, body)),
  };
}

describe('licence expiry', () => {
  it('fires at 30 and 7 days and on the day, each once, whatever runs how often', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Figma', expires_on: day(40) });
    const ends = dayEndsAt(made.expires_on ?? '');
    const at = (daysBefore: number) => new Date(ends.getTime() - daysBefore * DAY + 60_000);
    const sweeper = engine();
    await sweeper.runDue(new Date());
    expect(await fired(ws.key.workspaceId)).toEqual([]);
    await sweeper.runDue(at(30));
    await sweeper.runDue(at(30));
    expect(await fired(ws.key.workspaceId)).toEqual(['license.expiring:30']);
    // Two replicas at the 7-day mark: one fires it.
    await Promise.all([engine().runDue(at(7)), engine().runDue(at(7))]);
    await sweeper.runDue(at(0));
    await sweeper.runDue(at(-3));
    expect(await fired(ws.key.workspaceId)).toEqual([
      'license.expiring:30',
      'license.expiring:7',
      'license.expired:0',
    ]);
    const [entry] = await db.query<Array<{ action: string; source: string }>>(
      `SELECT action, source FROM register.activity WHERE record_id = $1 AND action = 'expired'`,
      [made.id],
    );
    expect(entry).toEqual({ action: 'expired', source: 'system' });
  });

  it('fires the nearest threshold at once for a date set inside it; a new date re-arms', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Slack', expires_on: day(5) });
    const sweeper = engine();
    await sweeper.runDue(new Date(Date.now() + 1_000));
    expect(await fired(ws.key.workspaceId)).toEqual([
      expect.stringMatching(/^license\.expiring:[56]$/),
    ]);
    // Renewed for a year: the old expiry never fires; the new one's 30 days do.
    await ws.update(made.id, { expires_on: day(365) });
    await sweeper.runDue(new Date(dayEndsAt(day(5)).getTime() + DAY));
    expect(await fired(ws.key.workspaceId)).toHaveLength(1);
    await sweeper.runDue(new Date(dayEndsAt(day(365)).getTime() - 30 * DAY + 1_000));
    expect((await fired(ws.key.workspaceId)).slice(1)).toEqual(['license.expiring:30']);
    // Cleared: nothing more.
    await ws.update(made.id, { expires_on: null });
    await sweeper.runDue(new Date(dayEndsAt(day(365)).getTime() + DAY));
    expect(await fired(ws.key.workspaceId)).toHaveLength(2);
  });

  it('is silent in the bin; a restore tells only what is still ahead, nothing twice', async () => {
    const ws = workspace();
    const made = await ws.create({ name: 'Zoom', expires_on: day(20) });
    const ends = dayEndsAt(made.expires_on ?? '');
    const sweeper = engine();
    await sweeper.runDue(new Date(Date.now() + 1_000));
    // 20 to 21 days left: inside the 30-day threshold, told at once.
    expect(await fired(ws.key.workspaceId)).toEqual([
      expect.stringMatching(/^license\.expiring:2[01]$/),
    ]);
    await licenses.delete(ws.key, made.id);
    await sweeper.runDue(new Date(ends.getTime() - 7 * DAY + 1_000));
    expect(await fired(ws.key.workspaceId)).toHaveLength(1);
    // Restored now, 20 days before its end: what was told is not told again (no second
    // 20-day notice); the 7-day mark, still ahead, and the expiry are.
    await licenses.restore(ws.key, made.id);
    await sweeper.runDue(new Date(Date.now() + 1_000));
    expect(await fired(ws.key.workspaceId)).toHaveLength(1);
    await sweeper.runDue(new Date(ends.getTime() - 7 * DAY + 2_000));
    await sweeper.runDue(new Date(ends.getTime() + 1_000));
    expect((await fired(ws.key.workspaceId)).slice(1)).toEqual([
      'license.expiring:7',
      'license.expired:0',
    ]);
  });

  it('takes the workspace’s thresholds: one at 14 days only', async () => {
    const ws = workspace();
    const settings = await notices.update(
      ws.key,
      await received(UpdateNoticeSettingsInput, { expiry_days: [14] }),
    );
    expect(settings.expiry_days).toEqual([14]);
    const made = await ws.create({ name: 'Notion', expires_on: day(60) });
    const ends = dayEndsAt(made.expires_on ?? '');
    const sweeper = engine();
    await sweeper.runDue(new Date(ends.getTime() - 30 * DAY + 1_000));
    expect(await fired(ws.key.workspaceId)).toEqual([]);
    await sweeper.runDue(new Date(ends.getTime() - 14 * DAY + 1_000));
    await sweeper.runDue(new Date(ends.getTime() + 1_000));
    expect(await fired(ws.key.workspaceId)).toEqual(['license.expiring:14', 'license.expired:0']);
    expect((await notices.get(testCaller())).expiry_days).toEqual([30, 7]);
  });
});
