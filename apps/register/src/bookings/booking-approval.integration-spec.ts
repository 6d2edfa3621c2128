import {
  CancelBookingInput,
  CreateAssetInput,
  CreateBookingInput,
  CreatePersonInput,
  RejectBookingInput,
  UpdateBookingInput,
  UpdateAssetInput,
  UpdateBookingSettingsInput,
  type CallerContext,
  type MemberRole,
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
import { AssetsService } from '../assets/assets.service';
import { AssignmentOverdue } from '../assets/assignment-overdue';
import { registerDataSource } from '../database/data-source';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { BookingDueDates } from './booking-due-dates';
import { BookingsService } from './bookings.service';

/**
 * Approval, the booking settings, and moving a booking, on a fresh migrated database: who may
 * confirm is read from the caller (a write key acts as admin; a console member by role).
 */

let store: MigratedDatabase;
let db: DataSource;
let bookings: BookingsService;
let assets: AssetsService;
let people: PeopleService;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 8));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  bookings = new BookingsService(reads, writes, writer, activity);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
}, 30_000);

afterAll(() => store?.close());

/** A workspace with a write key, and console members of it made on demand by role. */
function workspace() {
  const key: CallerContext = testCaller();
  const workspaceId = key.workspaceId;
  const member = async (role: Exclude<MemberRole, 'owner'> | 'owner'): Promise<CallerContext> => {
    const id = newId('usr');
    await db.query(
      `INSERT INTO register.members (id, workspace_id, email, role, status, invited_at)
       VALUES ($1, $2, $3, $4, 'active', now())`,
      [id, workspaceId, `${id}@example.com`, role],
    );
    return { ...key, keyId: `console:${id}`, actorName: `${id}@example.com` };
  };
  return {
    key,
    workspaceId,
    member,
    asset: async (name: string) => assets.create(key, await received(CreateAssetInput, { name })),
    person: async (full_name: string) =>
      people.create(key, await received(CreatePersonInput, { full_name })),
    book: async (caller: CallerContext, body: ClientBody<CreateBookingInput>) =>
      bookings.create(caller, await received(CreateBookingInput, body)),
    settings: async (body: ClientBody<UpdateBookingSettingsInput>) =>
      bookings.updateSettings(key, await received(UpdateBookingSettingsInput, body)),
    reject: async (caller: CallerContext, id: string, note: string) =>
      bookings.reject(caller, id, await received(RejectBookingInput, { note })),
    cancel: async (caller: CallerContext, id: string) =>
      bookings.cancel(caller, id, await received(CancelBookingInput, {})),
    update: async (caller: CallerContext, id: string, body: ClientBody<UpdateBookingInput>) =>
      bookings.update(caller, id, await received(UpdateBookingInput, body)),
  };
}

function engine(): DueDateEngine {
  const engine = new DueDateEngine(db, { DUE_DATES_SWEEP_MS: 60_000 });
  new AssignmentOverdue(engine, writer, activity).onModuleInit();
  new BookingDueDates(engine, writer, activity).onModuleInit();
  return engine;
}

async function events(workspaceId: string, prefix: string): Promise<string[]> {
  const rows = await db.query<Array<{ event: string }>>(
    `SELECT event FROM register.outbox WHERE workspace_id = $1 AND event LIKE $2
      ORDER BY created_at, id`,
    [workspaceId, `${prefix}%`],
  );
  return rows.map((row) => row.event);
}

describe('booking settings', () => {
  it('answers the defaults until changed, then changes only the fields sent', async () => {
    const ws = workspace();
    expect(await bookings.getSettings(ws.key)).toEqual({
      approval_required: false,
      no_show_grace_minutes: 60,
      updated_at: null,
    });
    const first = await ws.settings({ no_show_grace_minutes: 15 });
    expect(first).toMatchObject({ approval_required: false, no_show_grace_minutes: 15 });
    expect(first.updated_at).toEqual(expect.any(String));
    const second = await ws.settings({ approval_required: true });
    expect(second).toMatchObject({ approval_required: true, no_show_grace_minutes: 15 });
    expect(await bookings.getSettings(ws.key)).toEqual(second);
    // Another workspace keeps its defaults.
    expect((await bookings.getSettings(testCaller())).approval_required).toBe(false);
  });

  it('refuses an empty change and a grace out of range, naming the field', async () => {
    const ws = workspace();
    const empty = await domainRejection(ws.settings({}));
    expect(empty).toMatchObject({ code: 'invalid_input' });
    expect(empty.message).toMatch(/approval_required, no_show_grace_minutes/);
    await expect(
      received(UpdateBookingSettingsInput, { no_show_grace_minutes: 20_000 }),
    ).rejects.toThrow(/no_show_grace_minutes/);
    await expect(
      received(UpdateBookingSettingsInput, { approval_required: 'yes' }),
    ).rejects.toThrow(/approval_required must be true or false/);
  });
});

describe('approval', () => {
  it('makes a member’s booking requested (it holds its slot), and a manager confirms it once', async () => {
    const ws = workspace();
    await ws.settings({ approval_required: true });
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const member = await ws.member('member');
    const manager = await ws.member('manager');
    const asked = await ws.book(member, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(24),
      ends_at: at(48),
    });
    expect(asked.status).toBe('requested');
    expect(await events(ws.workspaceId, 'booking.')).toEqual([
      'booking.created',
      'booking.requested',
    ]);
    // The slot is held while it waits.
    const overlap = await domainRejection(
      ws.book(ws.key, {
        person_id: ada.id,
        asset_ids: [camera.id],
        starts_at: at(30),
        ends_at: at(40),
      }),
    );
    expect(overlap.code).toBe('conflict');
    expect(overlap.message).toContain(asked.id);
    // A member may not confirm, even their own.
    const refused = await domainRejection(bookings.confirm(member, asked.id));
    expect(refused).toMatchObject({ code: 'forbidden' });
    expect(refused.message).toMatch(/manager/);
    const confirmed = await bookings.confirm(manager, asked.id);
    expect(confirmed.status).toBe('confirmed');
    const again = await domainRejection(bookings.confirm(manager, asked.id));
    expect(again).toMatchObject({ code: 'conflict' });
    expect(again.message).toMatch(/only a requested booking can be confirmed/);
    expect(await events(ws.workspaceId, 'booking.confirmed')).toHaveLength(1);
    const feed = await db.query<Array<{ action: string; actor_name: string | null }>>(
      `SELECT action, actor_name FROM register.activity
        WHERE workspace_id = $1 AND record_id = $2 ORDER BY at, id`,
      [ws.workspaceId, asked.id],
    );
    expect(feed.map((entry) => entry.action)).toEqual(['created', 'confirmed']);
    expect(feed[1]?.actor_name).toBe(manager.actorName);
  });

  it('confirms at once what a manager or a write key books, approval or not', async () => {
    const ws = workspace();
    await ws.settings({ approval_required: true });
    const [camera, lens] = [await ws.asset('Camera'), await ws.asset('Lens')];
    const ada = await ws.person('Ada');
    const manager = await ws.member('manager');
    const byManager = await ws.book(manager, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    const byKey = await ws.book(ws.key, {
      person_id: ada.id,
      asset_ids: [lens.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    expect([byManager.status, byKey.status]).toEqual(['confirmed', 'confirmed']);
    expect(await events(ws.workspaceId, 'booking.requested')).toEqual([]);
  });

  it('rejects with a reason: booking.cancelled with reason rejected, the slot free again', async () => {
    const ws = workspace();
    await ws.settings({ approval_required: true });
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const member = await ws.member('member');
    const admin = await ws.member('admin');
    const asked = await ws.book(member, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(5),
      ends_at: at(6),
    });
    expect((await domainRejection(ws.reject(member, asked.id, 'no'))).code).toBe('forbidden');
    const rejected = await ws.reject(admin, asked.id, '  In repair that week  ');
    expect(rejected).toMatchObject({
      status: 'cancelled',
      cancellation: { reason: 'rejected', note: 'In repair that week' },
    });
    expect(await events(ws.workspaceId, 'booking.cancelled')).toHaveLength(1);
    await expect(received(RejectBookingInput, { note: '   ' })).rejects.toThrow(/note/);
    const twice = await domainRejection(ws.reject(admin, asked.id, 'again'));
    expect(twice.code).toBe('conflict');
    await expect(
      ws.book(ws.key, {
        person_id: ada.id,
        asset_ids: [camera.id],
        starts_at: at(5),
        ends_at: at(6),
      }),
    ).resolves.toMatchObject({ status: 'confirmed' });
  });

  it('lets a member cancel and change their own booking only, and not hand anything out', async () => {
    const ws = workspace();
    const [camera, lens] = [await ws.asset('Camera'), await ws.asset('Lens')];
    const ada = await ws.person('Ada');
    const mine = await ws.member('member');
    const theirs = await ws.member('member');
    const booked = await ws.book(mine, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    // No approval: a member's booking is confirmed at once.
    expect(booked.status).toBe('confirmed');
    expect((await domainRejection(ws.cancel(theirs, booked.id))).code).toBe('forbidden');
    expect((await domainRejection(ws.update(theirs, booked.id, { notes: 'x' }))).code).toBe(
      'forbidden',
    );
    expect((await domainRejection(bookings.checkOut(mine, booked.id))).code).toBe('forbidden');
    const moved = await ws.update(mine, booked.id, { asset_ids: [lens.id], notes: 'Lens instead' });
    expect(moved.assets.map((asset) => asset.name)).toEqual(['Lens']);
    expect((await ws.cancel(mine, booked.id)).status).toBe('cancelled');
  });

  it('keeps a member from moving a confirmed booking while approval is on (confirmed fires once)', async () => {
    const ws = workspace();
    await ws.settings({ approval_required: true });
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const member = await ws.member('member');
    const manager = await ws.member('manager');
    const asked = await ws.book(member, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(3),
      ends_at: at(4),
    });
    // Still requested: the asker may move it.
    const fiveHours = at(5);
    const moved = await ws.update(member, asked.id, { ends_at: fiveHours });
    expect(moved).toMatchObject({
      status: 'requested',
      ends_at: new Date(fiveHours).toISOString(),
    });
    await bookings.confirm(manager, asked.id);
    const refused = await domainRejection(ws.update(member, asked.id, { starts_at: at(2) }));
    expect(refused).toMatchObject({ code: 'forbidden' });
    expect(refused.message).toMatch(/cancel it and book again/);
    expect((await ws.update(member, asked.id, { notes: 'Bring batteries' })).notes).toBe(
      'Bring batteries',
    );
  });

  it('lets a requested booking nobody confirmed lapse as a no-show, after the workspace’s grace', async () => {
    const ws = workspace();
    await ws.settings({ approval_required: true, no_show_grace_minutes: 15 });
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const member = await ws.member('member');
    const asked = await ws.book(member, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(5),
    });
    const run = engine();
    await run.runDue(new Date(Date.now() + 1.2 * HOUR));
    expect((await bookings.get(ws.key, asked.id)).status).toBe('requested');
    await run.runDue(new Date(Date.now() + 1.3 * HOUR));
    expect((await bookings.get(ws.key, asked.id)).status).toBe('no_show');
    expect(await events(ws.workspaceId, 'booking.no_show')).toHaveLength(1);
  });
});

describe('moving a booking', () => {
  it('moves dates and assets before check-out, names the booking in the way, re-arms the no-show', async () => {
    const ws = workspace();
    const [camera, lens] = [await ws.asset('Camera'), await ws.asset('Lens')];
    const ada = await ws.person('Ada');
    const first = await ws.book(ws.key, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(10),
      ends_at: at(12),
    });
    const second = await ws.book(ws.key, {
      person_id: ada.id,
      asset_ids: [lens.id],
      starts_at: at(1),
      ends_at: at(3),
    });
    // Onto itself: no conflict with its own old range.
    const twoHours = at(2);
    const later = await ws.update(ws.key, second.id, { starts_at: twoHours, ends_at: at(4) });
    expect(later.starts_at).toBe(new Date(twoHours).toISOString());
    const clash = await domainRejection(
      ws.update(ws.key, second.id, { asset_ids: [lens.id, camera.id], ends_at: at(11) }),
    );
    expect(clash.code).toBe('conflict');
    expect(clash.message).toContain(`by booking ${first.id}`);
    expect(clash.message).not.toContain(`by booking ${second.id}`);
    // The no-show follows the new start: none at the old start's grace, one at the new one's.
    const run = engine();
    await run.runDue(new Date(Date.now() + 2.5 * HOUR));
    expect((await bookings.get(ws.key, second.id)).status).toBe('confirmed');
    await run.runDue(new Date(Date.now() + 3.5 * HOUR));
    expect((await bookings.get(ws.key, second.id)).status).toBe('no_show');
    const feed = await db.query<Array<{ action: string; changes: Array<{ field: string }> }>>(
      `SELECT action, changes FROM register.activity
        WHERE record_id = $1 AND action = 'updated'`,
      [second.id],
    );
    expect(feed[0]?.changes.map((change) => change.field)).toEqual(['starts_at', 'ends_at']);
  });

  it('extends a checked-out booking: due dates follow, overdue fires at the new end only', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const booked = await ws.book(ws.key, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(-0.5),
      ends_at: at(1),
    });
    await bookings.checkOut(ws.key, booked.id);
    const refused = await domainRejection(ws.update(ws.key, booked.id, { starts_at: at(0) }));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/only its ends_at and notes/);
    const extended = await ws.update(ws.key, booked.id, { ends_at: at(3) });
    expect(extended.status).toBe('checked_out');
    const asset = await assets.get(ws.key, camera.id);
    expect(asset.custody?.due_at).toBe(extended.ends_at);
    const run = engine();
    await run.runDue(new Date(Date.now() + 2 * HOUR));
    expect(await events(ws.workspaceId, 'booking.overdue')).toEqual([]);
    expect(await events(ws.workspaceId, 'assignment.overdue')).toEqual([]);
    await run.runDue(new Date(Date.now() + 3.5 * HOUR));
    expect(await events(ws.workspaceId, 'booking.overdue')).toHaveLength(1);
    expect(await events(ws.workspaceId, 'assignment.overdue')).toHaveLength(1);
    // Overdue, then given more time: checked out again.
    const again = await ws.update(ws.key, booked.id, { ends_at: at(6), notes: 'One more day' });
    expect(again).toMatchObject({ status: 'checked_out', notes: 'One more day' });
    expect((await bookings.checkIn(ws.key, booked.id, {})).status).toBe('completed');
    const done = await domainRejection(ws.update(ws.key, booked.id, { notes: 'late' }));
    expect(done.code).toBe('conflict');
  });
});

describe('check-outs by hand of a booked asset', () => {
  it('refuses one that would take the asset from a booking, naming it; allows one that ends before', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const [ada, bob] = [await ws.person('Ada'), await ws.person('Bob')];
    const patch = async (body: ClientBody<UpdateAssetInput>) =>
      assets.update(ws.key, camera.id, await received(UpdateAssetInput, body));
    const booked = await ws.book(ws.key, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(2),
      ends_at: at(4),
    });
    // Due back after the booking starts: refused, the booking named.
    const late = await domainRejection(patch({ assigned_to_id: bob.id, due_at: at(3) }));
    expect(late.code).toBe('conflict');
    expect(late.message).toContain(`by booking ${booked.id}`);
    expect(late.message).toContain('Ada');
    expect((await assets.get(ws.key, camera.id)).custody).toBeNull();
    // Due back before it starts: fine; then a due date moved into the booking is refused too.
    const early = await patch({ assigned_to_id: bob.id, due_at: at(1) });
    expect(early.custody?.person.id).toBe(bob.id);
    expect((await domainRejection(patch({ due_at: at(3) }))).code).toBe('conflict');
    await patch({ assigned_to_id: null });
    // While the booking holds it now, even a check-out with no due date is refused.
    await ws.update(ws.key, booked.id, { starts_at: at(-1) });
    const now = await domainRejection(patch({ assigned_to_id: bob.id }));
    expect(now.message).toContain(booked.id);
    // The booking's own hand-out is the way.
    expect((await bookings.checkOut(ws.key, booked.id)).status).toBe('checked_out');
  });
});
