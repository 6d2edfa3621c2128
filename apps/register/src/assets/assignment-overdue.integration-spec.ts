import { ActivityLog } from '@custodian/persistence';
import { OutboxWriter } from '@custodian/messaging';
import {
  CreateAssetInput,
  CreatePersonInput,
  UpdateAssetInput,
  type CallerContext,
} from '@custodian/contracts';
import {
  createMigratedDatabase,
  domainRejection,
  eventually,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { noticesOf, armNotice } from '../due-dates/due-notice.store';
import { OverdueNotices1764020000000 } from '../database/migrations/1764020000000-OverdueNotices';
import { AssetBin } from './asset-bin';
import { AssetsService } from './assets.service';
import { AssignmentOverdue, assetSubject } from './assignment-overdue';
import { OverdueCatchUp } from './overdue-catch-up';

/**
 * Custody due dates and assignment.overdue (issue 14), on a fresh, migrated database: a
 * check-out's due date arms a notice of the due-date engine, whose run fires the event. The
 * engine is given the time it compares with: a test clock, never a wait.
 */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');

/** An engine with the register's overdue handler: a new one is another replica, or a restart. */
function engine(): DueDateEngine {
  const engine = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new AssignmentOverdue(engine, writer, activity).onModuleInit();
  return engine;
}

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  assets = new AssetsService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
  people = new PeopleService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
  bin = new AssetBin(new ReadTransactions(db), new WriteTransactions(db), writer, activity, {
    BIN_RETENTION_DAYS: 30,
  });
}, 30_000);

afterAll(() => store?.close());

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR);

/** A workspace with one active person, and the calls this file makes in it. */
async function workspace() {
  const caller: CallerContext = testCaller();
  const ada = await people.create(
    caller,
    await received(CreatePersonInput, { full_name: 'Ada', email: 'ada@example.com' }),
  );
  return {
    caller,
    ada,
    create: async (body: ClientBody<CreateAssetInput>) =>
      assets.create(caller, await received(CreateAssetInput, body)),
    update: async (id: string, body: ClientBody<UpdateAssetInput>) =>
      assets.update(caller, id, await received(UpdateAssetInput, body)),
    overdue: () =>
      db.query<Array<{ data: Record<string, unknown> }>>(
        `SELECT data FROM register.outbox
         WHERE workspace_id = $1 AND event = 'assignment.overdue' ORDER BY created_at, id`,
        [caller.workspaceId],
      ),
  };
}

it('fires once, when the due date passes, with the asset, its holder, since and the due date', async () => {
  const ws = await workspace();
  const due = inHours(1);
  const laptop = await ws.create({
    name: 'Laptop',
    assigned_to_id: ws.ada.id,
    due_at: due.toISOString(),
  });
  expect(laptop.custody).toEqual({
    person: { id: ws.ada.id, name: 'Ada' },
    since: laptop.created_at,
    due_at: due.toISOString(),
  });

  const register = engine();
  await register.runDue(new Date(due.getTime() - 1));
  expect(await ws.overdue()).toEqual([]);
  await register.runDue(due);
  await register.runDue(inHours(2));
  await engine().runDue(inHours(3)); // another replica, or the register after a restart
  const fired = await ws.overdue();
  expect(fired).toHaveLength(1);
  expect(fired[0]!.data).toEqual({
    asset: await assets.get(ws.caller, laptop.id),
    person: { id: ws.ada.id, name: 'Ada' },
    since: laptop.custody!.since,
    due_at: due.toISOString(),
  });
});

it('never fires for an asset checked in before its due date, and fires again for a new one', async () => {
  const ws = await workspace();
  const first = inHours(1);
  const drill = await ws.create({ name: 'Drill' });
  await ws.update(drill.id, { assigned_to_id: ws.ada.id, due_at: first.toISOString() });
  await ws.update(drill.id, { assigned_to_id: null });
  expect((await assets.get(ws.caller, drill.id)).custody).toBeNull();
  await engine().runDue(inHours(2));
  expect(await ws.overdue()).toEqual([]);

  // Checked out again, overdue, then given a later due date: that one fires too.
  await ws.update(drill.id, { assigned_to_id: ws.ada.id, due_at: first.toISOString() });
  await engine().runDue(inHours(2));
  const later = inHours(5);
  const moved = await ws.update(drill.id, { due_at: later.toISOString() });
  expect(moved.custody!.due_at).toBe(later.toISOString());
  await engine().runDue(inHours(4));
  expect(await ws.overdue()).toHaveLength(1);
  await engine().runDue(inHours(6));
  expect((await ws.overdue()).map((event) => event.data.due_at)).toEqual([
    first.toISOString(),
    later.toISOString(),
  ]);

  // A check-out without a due date (or with it removed) never fires.
  await ws.update(drill.id, { due_at: null });
  expect((await assets.get(ws.caller, drill.id)).custody!.due_at).toBeNull();
  await engine().runDue(inHours(100));
  expect(await ws.overdue()).toHaveLength(2);
});

it('fires each due check-out exactly once when engines race', async () => {
  const ws = await workspace();
  const due = inHours(1);
  for (let i = 0; i < 30; i += 1) {
    await ws.create({ name: `Tool ${i}`, assigned_to_id: ws.ada.id, due_at: due.toISOString() });
  }
  const runs = await Promise.all(Array.from({ length: 4 }, () => engine().runDue(inHours(2))));
  expect(runs.reduce((sum, run) => sum + run.fired, 0)).toBe(30);
  const fired = await ws.overdue();
  expect(fired).toHaveLength(30);
  expect(new Set(fired.map((event) => (event.data.asset as { id: string }).id)).size).toBe(30);
});

it('refuses a due date without a check-out, or not in the future, naming due_at', async () => {
  const ws = await workspace();
  const saw = await ws.create({ name: 'Saw' });
  const refusals = [
    await domainRejection(ws.create({ name: 'Ladder', due_at: inHours(1).toISOString() })),
    await domainRejection(ws.update(saw.id, { due_at: inHours(1).toISOString() })),
    await domainRejection(
      ws.update(saw.id, { assigned_to_id: ws.ada.id, due_at: inHours(-1).toISOString() }),
    ),
  ];
  for (const refusal of refusals) {
    expect(refusal.code).toBe('invalid_input');
    expect(refusal.message).toMatch(/^due_at /);
  }
  // Nothing was written by the refused requests.
  expect((await assets.get(ws.caller, saw.id)).custody).toBeNull();
  // A date with an offset is read as the instant it names.
  const out = await ws.update(saw.id, {
    assigned_to_id: ws.ada.id,
    due_at: '2099-01-01T10:00:00+02:00',
  });
  expect(out.custody!.due_at).toBe('2099-01-01T08:00:00.000Z');
  // A null due date on an asset that is not out changes nothing and is not refused.
  const ladder = await ws.create({ name: 'Ladder', due_at: null });
  expect(ladder.custody).toBeNull();
});

it('keeps one notice armed per check-out: a due date arms it, a change re-arms, a check-in cancels', async () => {
  const ws = await workspace();
  const notices = async (id: string) =>
    (await noticesOf(db, assetSubject(ws.caller.workspaceId, id))).map((row) => ({
      kind: row.kind,
      due_at: row.due_at.toISOString(),
      state: row.fired_at ? 'fired' : row.cancelled_at ? 'cancelled' : 'armed',
    }));
  const first = inHours(1);
  const second = inHours(2);
  const camera = await ws.create({
    name: 'Camera',
    assigned_to_id: ws.ada.id,
    due_at: first.toISOString(),
  });
  expect(await notices(camera.id)).toEqual([
    { kind: 'assignment.overdue', due_at: first.toISOString(), state: 'armed' },
  ]);
  // A PATCH that leaves the due date alone leaves the notice alone.
  await ws.update(camera.id, { name: 'Camera 2' });
  expect(await notices(camera.id)).toHaveLength(1);
  await ws.update(camera.id, { due_at: second.toISOString() });
  expect((await notices(camera.id)).map((notice) => notice.state)).toEqual(['cancelled', 'armed']);
  await ws.update(camera.id, { assigned_to_id: null });
  expect((await notices(camera.id)).map((notice) => notice.state)).toEqual([
    'cancelled',
    'cancelled',
  ]);
  // Checked out again without a due date: nothing armed; with one: armed.
  await ws.update(camera.id, { assigned_to_id: ws.ada.id });
  expect((await notices(camera.id)).filter((notice) => notice.state === 'armed')).toEqual([]);
  await ws.update(camera.id, { due_at: second.toISOString() });
  expect((await notices(camera.id)).filter((notice) => notice.state === 'armed')).toEqual([
    { kind: 'assignment.overdue', due_at: second.toISOString(), state: 'armed' },
  ]);
  await engine().runDue(inHours(3));
  expect((await ws.overdue()).map((event) => event.data.due_at)).toEqual([second.toISOString()]);

  // Deleting an asset cancels every notice of it (a module's date on an asset, here one armed
  // by hand, since a checked-out asset cannot be deleted).
  const tripod = await ws.create({ name: 'Tripod' });
  const subject = assetSubject(ws.caller.workspaceId, tripod.id);
  await db.transaction((tx) => armNotice(tx, subject, 'warranty.expiring', inHours(24)));
  await bin.delete(ws.caller, tripod.id);
  expect((await noticesOf(db, subject)).map((row) => row.cancelled_at !== null)).toEqual([true]);
});

it('leaves a check-out a write is holding for the next run, then fires it', async () => {
  const ws = await workspace();
  const due = inHours(1);
  const lamp = await ws.create({
    name: 'Lamp',
    assigned_to_id: ws.ada.id,
    due_at: due.toISOString(),
  });
  // A PATCH of the asset in progress holds its row.
  const patch = db.createQueryRunner();
  await patch.connect();
  await patch.startTransaction();
  await patch.query(`SELECT 1 FROM register.assets WHERE id = $1 FOR UPDATE`, [lamp.id]);
  const held = await engine().runDue(inHours(2));
  expect(held).toMatchObject({ fired: 0, busy: 1, failed: 0 });
  await patch.commitTransaction();
  await patch.release();
  expect(await ws.overdue()).toEqual([]);

  const released = inHours(2);
  expect((await engine().runDue(released)).fired).toBe(1);
  expect((await ws.overdue()).map((event) => event.data.due_at)).toEqual([due.toISOString()]);
  // Busy was no failure: no attempt counted.
  const [notice] = await noticesOf(db, assetSubject(ws.caller.workspaceId, lamp.id));
  expect(notice).toMatchObject({ attempts: 0, fired_at: released });
});

it('backfills a notice for every open check-out with a due date not yet fired (migration)', async () => {
  const ws = await workspace();
  const due = inHours(1);
  const checkout = (name: string) =>
    ws.create({ name, assigned_to_id: ws.ada.id, due_at: due.toISOString() });
  const open = await checkout('Open');
  const fired = await checkout('Fired by the sweep');
  const returned = await checkout('Returned');
  await ws.update(returned.id, { assigned_to_id: null });
  const undated = await ws.create({ name: 'Undated', assigned_to_id: ws.ada.id });
  // The database as the version before the engine left it: no notices, and overdue_at set on
  // the check-out the sweep fired.
  const ids = [open.id, fired.id, returned.id, undated.id];
  await db.query(`DELETE FROM register.due_notices WHERE subject_id = ANY($1)`, [ids]);
  await db.query(`UPDATE register.assets SET overdue_at = now() WHERE id = $1`, [fired.id]);

  const runner = db.createQueryRunner();
  await new OverdueNotices1764020000000().up(runner);
  await runner.release();
  const backfilled = await db.query<Array<{ subject_id: string; due_at: Date; kind: string }>>(
    `SELECT subject_id, due_at, kind FROM register.due_notices
      WHERE subject_id = ANY($1) AND fired_at IS NULL AND cancelled_at IS NULL`,
    [ids],
  );
  expect(backfilled).toEqual([{ subject_id: open.id, due_at: due, kind: 'assignment.overdue' }]);

  expect((await engine().runDue(inHours(2))).fired).toBeGreaterThanOrEqual(1);
  expect((await ws.overdue()).map((event) => (event.data.asset as { id: string }).id)).toEqual([
    open.id,
  ]);
});

it('fires once beside a register of the previous version during a rollout', async () => {
  const ws = await workspace();
  const catchUp = new OverdueCatchUp(db);
  const due = inHours(1);
  // The old register's sweep fired this one first (it sets overdue_at): the engine does not.
  const firedByOld = await ws.create({
    name: 'Fired by the old sweep',
    assigned_to_id: ws.ada.id,
    due_at: due.toISOString(),
  });
  await db.query(`UPDATE register.assets SET overdue_at = $2 WHERE id = $1`, [firedByOld.id, due]);
  // The old register moved this one's due date, without touching its notice.
  const movedByOld = await ws.create({
    name: 'Moved by the old register',
    assigned_to_id: ws.ada.id,
    due_at: due.toISOString(),
  });
  const moved = inHours(3);
  await db.query(
    `UPDATE register.assets SET custody_due_at = $2, overdue_at = NULL WHERE id = $1`,
    [movedByOld.id, moved],
  );

  const run = await engine().runDue(inHours(2));
  expect(run).toMatchObject({ fired: 0, obsolete: 2 });
  expect(await ws.overdue()).toEqual([]);
  // Before its new date the catch-up arms nothing; after it, it arms the new date, which the
  // next run fires, once.
  await catchUp.catchUp(inHours(2));
  expect((await engine().runDue(inHours(2.5))).fired).toBe(0);
  await catchUp.catchUp(inHours(4));
  await catchUp.catchUp(inHours(4)); // twice, or two replicas: still one notice
  expect((await engine().runDue(inHours(4))).fired).toBe(1);
  await catchUp.catchUp(inHours(5));
  expect((await engine().runDue(inHours(5))).fired).toBe(0);
  expect(
    (await ws.overdue()).map((event) => [
      (event.data.asset as { id: string }).id,
      event.data.due_at,
    ]),
  ).toEqual([[movedByOld.id, moved.toISOString()]]);
  const notices = await noticesOf(db, assetSubject(ws.caller.workspaceId, movedByOld.id));
  expect(notices.map((row) => [row.due_at.toISOString(), row.fired_at !== null])).toEqual([
    [due.toISOString(), false],
    [moved.toISOString(), true],
  ]);
});

it('never deadlocks a due-date change with a run that holds its notice and waits for the workspace', async () => {
  const ws = await workspace();
  const first = await ws.create({
    name: 'First due',
    assigned_to_id: ws.ada.id,
    due_at: inHours(200).toISOString(),
  });
  const moving = await ws.create({
    name: 'Being moved',
    assigned_to_id: ws.ada.id,
    due_at: inHours(201).toISOString(),
  });
  // The PATCH runs on a pool of its own, so its transactions can be counted: a deadlock victim
  // would be run again (WriteTransactions retries deadlocks).
  const patchDb = await registerDataSource(store.database.url, 2).initialize();
  const transactions = jest.spyOn(patchDb, 'transaction');
  const patching = new AssetsService(
    new ReadTransactions(patchDb),
    new WriteTransactions(patchDb),
    writer,
    activity,
  );
  try {
    // A run that claims both notices (one transaction), then stops before firing the first.
    const paused = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
    const overdue = new AssignmentOverdue(paused, writer, activity);
    let reached!: () => void;
    let open!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (open = resolve));
    paused.handle('assignment.overdue', async (tx, notice, now) => {
      if (notice.subjectId === first.id) {
        reached();
        await gate;
      }
      return overdue.fire(tx, notice, now);
    });
    const run = paused.runDue(inHours(202));
    await atGate;

    // The second asset's due date is moved meanwhile: the PATCH locks the asset, then waits
    // for the notice the run holds.
    const later = inHours(300);
    const patch = patching.update(
      ws.caller,
      moving.id,
      await received(UpdateAssetInput, { due_at: later.toISOString() }),
    );
    await eventually(async () => {
      const waiting = await db.query<unknown[]>(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%register.due_notices%'`,
      );
      if (waiting.length === 0) throw new Error('the PATCH is not waiting for the notice yet');
    });

    // Firing the first updates its asset, which takes the workspace's counters row (a
    // trigger): free, since the PATCH waits before its own UPDATE. The second is busy.
    open();
    expect(await run).toMatchObject({ busy: 1, failed: 0 });
    const moved = await patch;
    expect(moved.custody!.due_at).toBe(later.toISOString());
    // Once: no deadlock made WriteTransactions run it again.
    expect(transactions).toHaveBeenCalledTimes(1);
    expect((await ws.overdue()).map((event) => (event.data.asset as { id: string }).id)).toEqual([
      first.id,
    ]);
    const notices = await noticesOf(db, assetSubject(ws.caller.workspaceId, moving.id));
    expect(notices.map((row) => [row.due_at.toISOString(), row.cancelled_at !== null])).toEqual([
      [moving.custody!.due_at, true],
      [later.toISOString(), false],
    ]);
  } finally {
    await patchDb.destroy();
  }
});
