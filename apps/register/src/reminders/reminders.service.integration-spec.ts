import {
  CreateAssetInput,
  CreateReminderInput,
  UpdateReminderInput,
  type CallerContext,
  type Reminder,
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
import { AssetsService } from '../assets/assets.service';
import { registerDataSource } from '../database/data-source';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { migrateRegister } from '../migrate';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { ReminderDueDates } from './reminder-due';
import { RemindersService } from './reminders.service';

/**
 * Reminders on a fresh migrated database, with the engine's clock passed in: every occurrence
 * fires reminder.due once (two engines at once, a restart between sweeps), the next is
 * scheduled in the same transaction, changes re-arm, a cancel silences.
 */

let store: MigratedDatabase;
let db: DataSource;
let reminders: RemindersService;
let assets: AssetsService;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  reminders = new RemindersService(reads, writes, activity);
  assets = new AssetsService(reads, writes, writer, activity);
}, 30_000);

afterAll(() => store?.close());

/** A fresh engine: another replica, or the register after a restart. */
function engine(): DueDateEngine {
  const made = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new ReminderDueDates(made, writer, activity).onModuleInit();
  return made;
}

/** The reminder.due events of the workspace: `due_at -> next_due_at`. */
async function fired(workspaceId: string): Promise<string[]> {
  const rows = await db.query<Array<{ data: Reminder }>>(
    `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'reminder.due'
      ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows.map((row) => `${row.data.due_at} -> ${row.data.next_due_at ?? 'none'}`);
}

function workspace() {
  const caller: CallerContext = testCaller();
  return {
    caller,
    id: caller.workspaceId,
    create: async (body: ClientBody<CreateReminderInput>, now?: Date) =>
      reminders.create(caller, await received(CreateReminderInput, body), now),
    update: async (id: string, body: ClientBody<UpdateReminderInput>, now?: Date) =>
      reminders.update(caller, id, await received(UpdateReminderInput, body), undefined, now),
  };
}

const NOW = new Date('2027-01-31T09:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('reminders', () => {
  it('fires a monthly reminder once per occurrence, scheduling the next with it', async () => {
    const ws = workspace();
    const asset = await assets.create(ws.caller, await received(CreateAssetInput, { name: 'Van' }));
    const made = await ws.create(
      {
        title: 'Check the tyres',
        due_at: '2027-01-31T10:00:00Z',
        repeat: { every: 1, unit: 'month' },
        asset_id: asset.id,
      },
      NOW,
    );
    expect(made).toMatchObject({
      status: 'scheduled',
      due_at: '2027-01-31T10:00:00.000Z',
      next_due_at: '2027-02-28T10:00:00.000Z',
      occurrences: 0,
      asset: { id: asset.id, name: 'Van', asset_tag: asset.asset_tag },
    });
    await engine().runDue(later(30 * 60_000));
    expect(await fired(ws.id)).toEqual([]);
    await Promise.all([engine().runDue(later(3_600_000)), engine().runDue(later(3_600_000))]);
    await engine().runDue(later(2 * 3_600_000));
    // Two months on: February's fires, once, however many sweeps and replicas.
    const march = new Date('2027-03-01T00:00:00.000Z');
    await Promise.all([engine().runDue(march), engine().runDue(march)]);
    await engine().runDue(march);
    expect(await fired(ws.id)).toEqual([
      '2027-01-31T10:00:00.000Z -> 2027-02-28T10:00:00.000Z',
      '2027-02-28T10:00:00.000Z -> 2027-03-31T10:00:00.000Z',
    ]);
    const now = await reminders.get(ws.caller, made.id);
    expect(now).toMatchObject({
      status: 'scheduled',
      due_at: '2027-03-31T10:00:00.000Z',
      occurrences: 2,
      last_due_at: '2027-02-28T10:00:00.000Z',
    });
    const entries = await db.query<Array<{ action: string; related_id: string }>>(
      `SELECT action, related_id FROM register.activity WHERE record_id = $1 ORDER BY at, id`,
      [made.id],
    );
    expect(entries.map((entry) => entry.action)).toEqual(['created', 'due', 'due']);
    expect(entries[1]?.related_id).toBe(asset.id);
  });

  it('is done after a one-off; a change re-arms; a cancel silences', async () => {
    const ws = workspace();
    const once = await ws.create({ title: 'Return the keys', due_at: '2027-02-01T09:00:00Z' }, NOW);
    await engine().runDue(new Date('2027-02-02T00:00:00Z'));
    expect(await fired(ws.id)).toEqual(['2027-02-01T09:00:00.000Z -> none']);
    expect((await reminders.get(ws.caller, once.id)).status).toBe('done');
    const refused = await domainRejection(ws.update(once.id, { title: 'Again' }, NOW));
    expect([refused.code, refused.message]).toEqual([
      'conflict',
      `Reminder Return the keys (${once.id}) is done; create a new one instead`,
    ]);

    const weekly = await ws.create(
      { title: 'Backup tapes', due_at: '2027-02-05T09:00:00Z', repeat: { every: 1, unit: 'week' } },
      NOW,
    );
    const moved = await ws.update(weekly.id, { due_at: '2027-02-06T09:00:00Z' }, NOW);
    expect(moved.next_due_at).toBe('2027-02-13T09:00:00.000Z');
    await engine().runDue(new Date('2027-02-05T12:00:00Z'));
    expect(await fired(ws.id)).toHaveLength(1);
    const cancelled = await reminders.cancel(ws.caller, weekly.id);
    expect([cancelled.status, cancelled.next_due_at]).toEqual(['cancelled', null]);
    await engine().runDue(new Date('2027-03-01T00:00:00Z'));
    expect(await fired(ws.id)).toHaveLength(1);
    const listed = await reminders.list(ws.caller, {});
    expect(listed.data.map((reminder) => reminder.id)).toEqual([once.id]);
    const all = await reminders.list(ws.caller, { status: 'cancelled' });
    expect(all.data.map((reminder) => reminder.id)).toEqual([weekly.id]);
  });

  it('refuses a past date, two subjects, and a record of another workspace, naming them', async () => {
    const ws = workspace();
    const other = workspace();
    const theirs = await assets.create(
      other.caller,
      await received(CreateAssetInput, { name: 'Not yours' }),
    );
    const cases: Array<[ClientBody<CreateReminderInput>, string]> = [
      [{ title: 'Late', due_at: '2027-01-01T00:00:00Z' }, 'due_at must be in the future'],
      [
        {
          title: 'Two',
          due_at: '2027-02-01T00:00:00Z',
          asset_id: theirs.id,
          person_id: 'per_01jd8x2b6c8e0g2j4m6p8r0t2w',
        },
        'Send at most one of asset_id, person_id and license_id',
      ],
      [
        { title: 'Theirs', due_at: '2027-02-01T00:00:00Z', asset_id: theirs.id },
        `asset_id: asset ${theirs.id} not found`,
      ],
    ];
    for (const [body, message] of cases) {
      const refused = await domainRejection(ws.create(body, NOW));
      expect([refused.code, refused.message]).toEqual([
        'invalid_input',
        expect.stringContaining(message),
      ]);
    }
    expect((await reminders.list(ws.caller, {})).total).toBe(0);
    expect((await domainRejection(reminders.get(other.caller, 'rem_missing'))).code).toBe(
      'not_found',
    );
  });
});
