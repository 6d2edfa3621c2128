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
import { AssetsService } from './assets.service';
import { OverdueSweep } from './overdue-sweep';

/**
 * Custody due dates and assignment.overdue (issue 14), on a fresh, migrated database. The
 * sweep is given the time it compares with: a test clock, never a wait.
 */

let store: MigratedDatabase;
let db: DataSource;
let assets: AssetsService;
let people: PeopleService;
const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const sweeper = () => new OverdueSweep(db, writer, activity, { OVERDUE_SWEEP_MS: 60_000 });

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  assets = new AssetsService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
  people = new PeopleService(new ReadTransactions(db), new WriteTransactions(db), writer, activity);
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

  const sweep = sweeper();
  await sweep.sweep(new Date(due.getTime() - 1));
  expect(await ws.overdue()).toEqual([]);
  await sweep.sweep(due);
  await sweep.sweep(inHours(2));
  await sweeper().sweep(inHours(3)); // another replica, or the register after a restart
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
  await sweeper().sweep(inHours(2));
  expect(await ws.overdue()).toEqual([]);

  // Checked out again, overdue, then given a later due date: that one fires too.
  await ws.update(drill.id, { assigned_to_id: ws.ada.id, due_at: first.toISOString() });
  await sweeper().sweep(inHours(2));
  const later = inHours(5);
  const moved = await ws.update(drill.id, { due_at: later.toISOString() });
  expect(moved.custody!.due_at).toBe(later.toISOString());
  await sweeper().sweep(inHours(4));
  expect(await ws.overdue()).toHaveLength(1);
  await sweeper().sweep(inHours(6));
  expect((await ws.overdue()).map((event) => event.data.due_at)).toEqual([
    first.toISOString(),
    later.toISOString(),
  ]);

  // A check-out without a due date (or with it removed) never fires.
  await ws.update(drill.id, { due_at: null });
  expect((await assets.get(ws.caller, drill.id)).custody!.due_at).toBeNull();
  await sweeper().sweep(inHours(100));
  expect(await ws.overdue()).toHaveLength(2);
});

it('fires each due check-out exactly once when sweeps race', async () => {
  const ws = await workspace();
  const due = inHours(1);
  for (let i = 0; i < 30; i += 1) {
    await ws.create({ name: `Tool ${i}`, assigned_to_id: ws.ada.id, due_at: due.toISOString() });
  }
  const counts = await Promise.all(Array.from({ length: 4 }, () => sweeper().sweep(inHours(2))));
  expect(counts.reduce((sum, count) => sum + count, 0)).toBe(30);
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
