import { newId } from '@custodian/persistence';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import {
  DueDateEngine,
  MAX_ATTEMPTS,
  retryDelayMs,
  type DueHandler,
  type DueNotice,
} from './due-date-engine';
import { armNotice, cancelNotices, claimDue, noticesOf, type DueSubject } from './due-notice.store';

/**
 * The due-date engine on a fresh, migrated Postgres. Its clock is passed in (`runDue(now)`),
 * so a test moves it instead of waiting. Every test uses kinds of its own: an engine claims
 * only the kinds it has handlers for, so the tests' notices never fire each other's.
 *
 * The handlers here record what they fire in `fired_log`, a table of the test, inside the
 * claiming transaction, as a domain writes its event to the outbox: a notice fired twice, or a
 * handler's writes kept after it failed, shows there.
 */

let store: MigratedDatabase;
let db: DataSource;

const T0 = new Date('2030-01-01T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  await db.query(
    `CREATE TABLE public.fired_log (notice_id bigint, kind text, subject_id text, due_at timestamptz)`,
  );
}, 30_000);

afterAll(() => store?.close());

afterEach(() => jest.restoreAllMocks());

const workspaceId = newId('wsp');
const subject = (id: string): DueSubject => ({ workspaceId, type: 'thing', id });

function engine(handlers: Record<string, DueHandler>): DueDateEngine {
  const made = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  for (const [kind, handler] of Object.entries(handlers)) made.handle(kind, handler);
  return made;
}

async function log(tx: EntityManager, notice: DueNotice): Promise<void> {
  await tx.query(
    `INSERT INTO public.fired_log (notice_id, kind, subject_id, due_at) VALUES ($1, $2, $3, $4)`,
    [notice.id, notice.kind, notice.subjectId, notice.dueAt],
  );
}

/** Records the notice, and fires it. */
const logs: DueHandler = async (tx, notice) => {
  await log(tx, notice);
  return 'fired';
};

const arm = (id: string, kind: string, dueAt: Date) =>
  db.transaction((tx) => armNotice(tx, subject(id), kind, dueAt));

const firedLog = (kind: string) =>
  db.query<Array<{ notice_id: string; subject_id: string; due_at: Date }>>(
    `SELECT notice_id, subject_id, due_at FROM public.fired_log WHERE kind = $1
      ORDER BY subject_id, due_at`,
    [kind],
  );

// 250 notices, three engines: a few seconds on a loaded machine.
it('fires each notice once when engines race, past a batch, sharing the work', async () => {
  const subjects = Array.from({ length: 250 }, (_, i) => `race-${String(i).padStart(3, '0')}`);
  await db.transaction(async (tx) => {
    for (const id of subjects) await armNotice(tx, subject(id), 'race', at(60));
  });
  // A little work per notice, so the engines' transactions overlap.
  const slow: DueHandler = async (tx, notice) => {
    await tx.query(`SELECT pg_sleep(0.002)`);
    return logs(tx, notice, T0);
  };
  const runs = await Promise.all(
    Array.from({ length: 4 }, () => engine({ race: slow }).runDue(at(61))),
  );

  expect(runs.reduce((sum, run) => sum + run.fired, 0)).toBe(250);
  expect(runs.every((run) => run.failed === 0 && run.busy === 0)).toBe(true);
  // SKIP LOCKED: the engines took different rows at once rather than one doing all of them.
  expect(runs.filter((run) => run.fired > 0).length).toBeGreaterThan(1);
  const fired = await firedLog('race');
  expect(fired).toHaveLength(250);
  expect(new Set(fired.map((row) => row.subject_id)).size).toBe(250);
  expect(new Set(fired.map((row) => row.notice_id)).size).toBe(250);
  // Every notice is marked fired, with the clock of the run that fired it.
  const [states] = await db.query<Array<{ fired: number; armed: number }>>(
    `SELECT count(*) FILTER (WHERE fired_at = $2)::int AS fired,
            count(*) FILTER (WHERE fired_at IS NULL)::int AS armed
       FROM register.due_notices WHERE workspace_id = $1 AND kind = 'race'`,
    [workspaceId, at(61)],
  );
  expect(states).toEqual({ fired: 250, armed: 0 });
  // Later runs, by any engine, find nothing more to fire.
  expect((await engine({ race: logs }).runDue(at(600))).fired).toBe(0);
  expect(await firedLog('race')).toHaveLength(250);
}, 20_000);

it('fires, after a restart, what fell due while the register was down, and only once', async () => {
  for (const id of ['down-a', 'down-b', 'down-c']) await arm(id, 'restart', at(60));
  await arm('down-later', 'restart', at(600));
  // Before the date: nothing.
  expect((await engine({ restart: logs }).runDue(at(59))).fired).toBe(0);

  // A replica claims the due notices and dies before it commits (its transaction rolls back,
  // as Postgres does with a dropped connection). While it holds them, no other engine fires
  // them; once it is gone, they are fired, once, by the register that comes back.
  const dying = db.createQueryRunner();
  await dying.connect();
  await dying.startTransaction();
  const held = await claimDue(dying.manager, at(120), ['restart'], [], 100);
  expect(held.map((row) => row.subject_id).sort()).toEqual(['down-a', 'down-b', 'down-c']);
  expect((await engine({ restart: logs }).runDue(at(120))).fired).toBe(0);
  await dying.rollbackTransaction();
  await dying.release();

  const restarted = engine({ restart: logs });
  expect((await restarted.runDue(at(120))).fired).toBe(3);
  expect((await engine({ restart: logs }).runDue(at(180))).fired).toBe(0);
  // The later date waits for its own time.
  expect((await engine({ restart: logs }).runDue(at(601))).fired).toBe(1);
  expect((await firedLog('restart')).map((row) => row.subject_id)).toEqual([
    'down-a',
    'down-b',
    'down-c',
    'down-later',
  ]);
});

it('fires a re-armed notice for its new date only, earlier or later, and a fired date never again', async () => {
  // Moved later: the first date passes without a notice.
  expect(await arm('later', 'rearm', at(60))).toBe(true);
  expect(await arm('later', 'rearm', at(180))).toBe(true);
  // Moved earlier.
  expect(await arm('earlier', 'rearm', at(120))).toBe(true);
  expect(await arm('earlier', 'rearm', at(30))).toBe(true);
  // Armed twice with the same date: one notice.
  expect(await arm('twice', 'rearm', at(90))).toBe(true);
  expect(await arm('twice', 'rearm', at(90))).toBe(true);

  const rearm = engine({ rearm: logs });
  expect((await rearm.runDue(at(100))).fired).toBe(2); // earlier (30) and twice (90)
  expect((await rearm.runDue(at(179))).fired).toBe(0); // later's first date (60) is gone
  expect((await rearm.runDue(at(200))).fired).toBe(1);
  expect(
    (await firedLog('rearm')).map((row) => [row.subject_id, row.due_at.toISOString()]),
  ).toEqual([
    ['earlier', at(30).toISOString()],
    ['later', at(180).toISOString()],
    ['twice', at(90).toISOString()],
  ]);
  const later = await noticesOf(db, subject('later'));
  expect(
    later.map((row) => [row.due_at.toISOString(), !!row.cancelled_at, !!row.fired_at]),
  ).toEqual([
    [at(60).toISOString(), true, false],
    [at(180).toISOString(), false, true],
  ]);
  expect(await noticesOf(db, subject('twice'))).toHaveLength(1);

  // A date that fired is not armed again; moving away from it and back changes nothing.
  expect(await arm('later', 'rearm', at(180))).toBe(false);
  expect(await arm('later', 'rearm', at(900))).toBe(true);
  expect(await arm('later', 'rearm', at(180))).toBe(false);
  // Arming the fired date again cancelled the armed one at 900: no date is armed.
  expect((await rearm.runDue(at(1_000))).fired).toBe(0);
  expect(await firedLog('rearm')).toHaveLength(3);
  // A cancelled date armed again is armed again.
  expect(await arm('later', 'rearm', at(1_100))).toBe(true);
  expect(await arm('later', 'rearm', at(1_200))).toBe(true);
  expect(await arm('later', 'rearm', at(1_100))).toBe(true);
  expect((await rearm.runDue(at(1_300))).fired).toBe(1);
  const laterFired = (await firedLog('rearm')).filter((row) => row.subject_id === 'later');
  expect(laterFired.map((row) => row.due_at.toISOString())).toEqual([
    at(180).toISOString(),
    at(1_100).toISOString(),
  ]);
});

it('never fires a cancelled notice, and a cancel leaves fired ones fired', async () => {
  await arm('cancelled', 'cancel', at(60));
  await arm('other-kind', 'cancel', at(60));
  await arm('other-kind', 'cancel-too', at(60));
  await arm('fired', 'cancel', at(10));
  const cancel = engine({ cancel: logs, 'cancel-too': logs });
  expect((await cancel.runDue(at(20))).fired).toBe(1);

  expect(await db.transaction((tx) => cancelNotices(tx, subject('cancelled'), 'cancel'))).toBe(1);
  // Without a kind: every kind of the subject.
  expect(await db.transaction((tx) => cancelNotices(tx, subject('other-kind')))).toBe(2);
  expect(await db.transaction((tx) => cancelNotices(tx, subject('fired')))).toBe(0);

  expect((await cancel.runDue(at(10_000))).fired).toBe(0);
  expect((await firedLog('cancel')).map((row) => row.subject_id)).toEqual(['fired']);
  expect(await firedLog('cancel-too')).toEqual([]);
  const [fired] = await noticesOf(db, subject('fired'));
  expect(fired!.fired_at).toEqual(at(20));
  expect(fired!.cancelled_at).toBeNull();
});

it('keeps going past a failing handler, rolls back its writes, retries with a backoff, then gives up', async () => {
  const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  // The bad one is due first, so it is claimed first in the batch.
  await arm('bad', 'flaky', at(59));
  await arm('good-1', 'flaky', at(60));
  await arm('good-2', 'flaky', at(61));
  let broken = true;
  // It writes, then fails in SQL (which aborts the transaction up to the savepoint).
  const flaky: DueHandler = async (tx, notice) => {
    await log(tx, notice);
    if (notice.subjectId === 'bad' && broken) await tx.query(`SELECT 1 / 0`);
    return 'fired';
  };
  const run = await engine({ flaky }).runDue(at(62));
  expect(run).toEqual({ fired: 2, obsolete: 0, busy: 0, failed: 1 });
  expect((await firedLog('flaky')).map((row) => row.subject_id)).toEqual(['good-1', 'good-2']);
  let [bad] = await noticesOf(db, subject('bad'));
  expect(bad).toMatchObject({ attempts: 1, fired_at: null, failed_at: null });
  expect(bad!.last_error).toMatch(/division by zero/);
  expect(bad!.next_attempt_at).toEqual(new Date(at(62).getTime() + retryDelayMs(1)));

  // Not before its retry time.
  expect(await engine({ flaky }).runDue(at(62.5))).toEqual({
    fired: 0,
    obsolete: 0,
    busy: 0,
    failed: 0,
  });
  // Each retry at its time fails again, until the last attempt gives it up.
  for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
    expect((await engine({ flaky }).runDue(bad!.next_attempt_at)).failed).toBe(1);
    [bad] = await noticesOf(db, subject('bad'));
    expect(bad!.attempts).toBe(attempt);
  }
  expect(bad!.failed_at).not.toBeNull();
  expect(errors).toHaveBeenCalledTimes(1);
  expect(String(errors.mock.calls[0]![0])).toMatch(/flaky of thing bad .* failed 5 times/);
  expect(warnings).toHaveBeenCalledTimes(MAX_ATTEMPTS - 1);

  // Given up: never claimed again, even once the handler works; and arming the same date
  // does not revive it (an operator does: docs/operations.md).
  broken = false;
  expect(await arm('bad', 'flaky', at(59))).toBe(false);
  expect((await engine({ flaky }).runDue(at(100_000))).fired).toBe(0);
  expect((await firedLog('flaky')).map((row) => row.subject_id)).toEqual(['good-1', 'good-2']);
});

it('leaves a busy notice armed without counting an attempt, and an obsolete one cancelled', async () => {
  await arm('busy', 'moods', at(10));
  await arm('gone', 'moods', at(10));
  let busy = true;
  const moods: DueHandler = async (tx, notice) => {
    if (notice.subjectId === 'gone') return 'obsolete';
    if (busy) return 'busy';
    return logs(tx, notice, T0);
  };
  // The busy one is claimed once per run, not over and over.
  expect(await engine({ moods }).runDue(at(20))).toEqual({
    fired: 0,
    obsolete: 1,
    busy: 1,
    failed: 0,
  });
  const [waiting] = await noticesOf(db, subject('busy'));
  expect(waiting).toMatchObject({ attempts: 0, fired_at: null, cancelled_at: null });
  const [gone] = await noticesOf(db, subject('gone'));
  expect(gone!.cancelled_at).toEqual(at(20));

  busy = false;
  expect((await engine({ moods }).runDue(at(21))).fired).toBe(1);
  expect((await firedLog('moods')).map((row) => row.subject_id)).toEqual(['busy']);
});

it('claims only the kinds it has a handler for', async () => {
  await arm('unknown', 'not-handled-here', at(0));
  await arm('known', 'handled-here', at(0));
  expect((await engine({ 'handled-here': logs }).runDue(at(10))).fired).toBe(1);
  expect(await engine({}).runDue(at(10))).toEqual({ fired: 0, obsolete: 0, busy: 0, failed: 0 });
  const [unknown] = await noticesOf(db, subject('unknown'));
  expect(unknown).toMatchObject({ attempts: 0, fired_at: null, cancelled_at: null });
});

it('refuses a second armed date for one (subject, kind) in the table itself', async () => {
  await arm('single', 'constraint', at(10));
  // Written around armNotice (which cancels the other date first): the index refuses it.
  await expect(
    db.query(
      `INSERT INTO register.due_notices
         (workspace_id, subject_type, subject_id, kind, due_at, next_attempt_at)
       VALUES ($1, 'thing', 'single', 'constraint', $2, $2)`,
      [workspaceId, at(20)],
    ),
  ).rejects.toThrow(/due_notices_one_armed/);
});

it("takes a batch's notices workspace by workspace, so engines whose handlers lock a workspace row never deadlock", async () => {
  await db.query(`CREATE TABLE public.workspace_rows (workspace_id text PRIMARY KEY, n int)`);
  const [w1, w2] = ['wsp_order_1', 'wsp_order_2'];
  await db.query(`INSERT INTO public.workspace_rows VALUES ($1, 0), ($2, 0)`, [w1, w2]);
  const armIn = (workspace: string, id: string, kind: string, dueAt: Date) =>
    db.transaction((tx) =>
      armNotice(tx, { workspaceId: workspace, type: 'thing', id }, kind, dueAt),
    );
  // By date alone, engine A would go w2 then w1, and engine B w1 then w2: each would hold the
  // row the other waits for.
  await armIn(w2, 'a-w2', 'order-a', at(1));
  await armIn(w1, 'a-w1', 'order-a', at(2));
  await armIn(w1, 'b-w1', 'order-b', at(1));
  await armIn(w2, 'b-w2', 'order-b', at(2));

  // Both engines start their first handler before either takes its first row.
  let started = 0;
  let bothStarted!: () => void;
  const barrier = new Promise<void>((resolve) => (bothStarted = resolve));
  const handler =
    (firstId: { done: boolean }): DueHandler =>
    async (tx, notice) => {
      if (!firstId.done) {
        firstId.done = true;
        started += 1;
        if (started === 2) bothStarted();
        await barrier;
      }
      // A row of the notice's workspace, as an update of register.assets takes its counters.
      await tx.query(`UPDATE public.workspace_rows SET n = n + 1 WHERE workspace_id = $1`, [
        notice.workspaceId,
      ]);
      return logs(tx, notice, T0);
    };
  const runs = await Promise.all([
    engine({ 'order-a': handler({ done: false }) }).runDue(at(10)),
    engine({ 'order-b': handler({ done: false }) }).runDue(at(10)),
  ]);
  expect(runs).toEqual([
    { fired: 2, obsolete: 0, busy: 0, failed: 0 },
    { fired: 2, obsolete: 0, busy: 0, failed: 0 },
  ]);
  expect(
    await db.query(`SELECT workspace_id, n FROM public.workspace_rows ORDER BY workspace_id`),
  ).toEqual([
    { workspace_id: w1, n: 2 },
    { workspace_id: w2, n: 2 },
  ]);
});
