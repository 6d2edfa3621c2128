import {
  CancelBookingInput,
  CheckInBookingInput,
  CreateAssetInput,
  CreateBookingInput,
  CreatePersonInput,
  UpdateAssetInput,
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
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AssignmentOverdue } from '../assets/assignment-overdue';
import { DueDateEngine } from '../due-dates/due-date-engine';
import { BookingDueDates } from './booking-due-dates';
import { BookingsService } from './bookings.service';

/** Bookings on a fresh migrated database: the rules, and the overlap the database refuses. */

let store: MigratedDatabase;
let db: DataSource;
let bookings: BookingsService;
let assets: AssetsService;
let people: PeopleService;
let bin: AssetBin;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const HOUR = 3_600_000;
/** An instant `hours` from now, as a client sends it. */
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

beforeAll(async () => {
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 12));
  db = store.db;
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  bookings = new BookingsService(reads, writes, writer, activity);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bin = new AssetBin(reads, writes, writer, activity, { BIN_RETENTION_DAYS: 30 });
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const caller: CallerContext = testCaller();
  return {
    caller,
    asset: async (name: string, extra: ClientBody<CreateAssetInput> = {}) =>
      assets.create(caller, await received(CreateAssetInput, { name, ...extra })),
    person: async (full_name: string) =>
      people.create(caller, await received(CreatePersonInput, { full_name })),
    book: async (body: ClientBody<CreateBookingInput>) =>
      bookings.create(caller, await received(CreateBookingInput, body)),
    cancel: async (id: string, body: ClientBody<CancelBookingInput> = {}) =>
      bookings.cancel(caller, id, await received(CancelBookingInput, body)),
    checkOut: (id: string, now?: Date) => bookings.checkOut(caller, id, now),
    checkIn: async (id: string, body: ClientBody<CheckInBookingInput> = {}) =>
      bookings.checkIn(caller, id, await received(CheckInBookingInput, body)),
  };
}

/** The register's due-date engine with the booking and check-out handlers, as the app has it. */
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

describe('bookings', () => {
  it('books several assets for a person, confirmed at once: booking.created then booking.confirmed', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const tripod = await ws.asset('Tripod');
    const ada = await ws.person('Ada Lovelace');
    const booking = await ws.book({
      person_id: ada.id,
      asset_ids: [tripod.id, camera.id],
      starts_at: at(24),
      ends_at: at(48),
      notes: 'Shoot',
    });
    expect(booking).toMatchObject({
      status: 'confirmed',
      person: { id: ada.id, name: 'Ada Lovelace' },
      notes: 'Shoot',
      cancellation: null,
    });
    expect(booking.assets.map((asset) => asset.name).sort()).toEqual(['Camera', 'Tripod']);
    expect(await events(ws.caller.workspaceId, 'booking.')).toEqual([
      'booking.created',
      'booking.confirmed',
    ]);
    expect(await bookings.get(ws.caller, booking.id)).toEqual(booking);
  });

  it('refuses an overlap on any asset with a 409 naming the booking, the asset and its range', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const lens = await ws.asset('Lens');
    const ada = await ws.person('Ada');
    const first = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(10),
      ends_at: at(20),
    });
    const refused = await domainRejection(
      ws.book({
        person_id: ada.id,
        asset_ids: [lens.id, camera.id],
        starts_at: at(19),
        ends_at: at(30),
      }),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain(first.id);
    expect(refused.message).toContain(`Camera (${camera.id})`);
    expect(refused.message).toContain(first.starts_at);
    expect(refused.message).toContain(first.ends_at);
    // Nothing of the refused booking was kept: the lens is still free for that range.
    await expect(
      ws.book({ person_id: ada.id, asset_ids: [lens.id], starts_at: at(19), ends_at: at(30) }),
    ).resolves.toMatchObject({ status: 'confirmed' });
    // Touching ranges do not overlap: [10, 20) then [20, 30).
    await expect(
      ws.book({
        person_id: ada.id,
        asset_ids: [camera.id],
        starts_at: first.ends_at,
        ends_at: at(30),
      }),
    ).resolves.toMatchObject({ status: 'confirmed' });
  });

  it('gives exactly one of 20 concurrent overlapping bookings, the others a 409', async () => {
    const ws = workspace();
    const camera = await ws.asset('Contested camera');
    const ada = await ws.person('Ada');
    const body = await received(CreateBookingInput, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(5),
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        bookings.create(ws.caller, { ...body, starts_at: at(1 + i * 0.01) }),
      ),
    );
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const codes = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as { code?: string }).code] : [],
    );
    expect(made).toHaveLength(1);
    expect(codes).toEqual(Array.from({ length: 19 }, () => 'conflict'));
  });

  it('frees the range on cancel (booking.cancelled), and cancels only what is not handed out', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const booking = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    const cancelled = await ws.cancel(booking.id, { note: 'Plans changed' });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancellation).toMatchObject({ reason: 'cancelled', note: 'Plans changed' });
    await expect(
      ws.book({ person_id: ada.id, asset_ids: [camera.id], starts_at: at(1), ends_at: at(2) }),
    ).resolves.toMatchObject({ status: 'confirmed' });
    const again = await domainRejection(ws.cancel(booking.id));
    expect(again.code).toBe('conflict');
    expect(again.message).toMatch(/is cancelled/);
    expect(await events(ws.caller.workspaceId, 'booking.cancelled')).toHaveLength(1);
  });

  it('refuses assets it cannot hand out, naming each, and a person who is inactive', async () => {
    const ws = workspace();
    const other = workspace();
    const ada = await ws.person('Ada');
    const retired = await ws.asset('Old camera', { status: 'retired' });
    const binned = await ws.asset('Binned');
    await bin.delete(ws.caller, binned.id);
    const theirs = await other.asset('Not ours');
    const refused = await domainRejection(
      ws.book({
        person_id: ada.id,
        asset_ids: [retired.id, binned.id, theirs.id],
        starts_at: at(1),
        ends_at: at(2),
      }),
    );
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toContain(`Old camera (${retired.id}) is retired`);
    expect(refused.message).toContain(`asset ${binned.id} not found`);
    expect(refused.message).toContain(`asset ${theirs.id} not found`);

    const gone = await ws.person('Grace');
    await people.update(ws.caller, gone.id, { status: 'inactive' });
    const camera = await ws.asset('Camera');
    const inactive = await domainRejection(
      ws.book({ person_id: gone.id, asset_ids: [camera.id], starts_at: at(1), ends_at: at(2) }),
    );
    expect(inactive.message).toMatch(/^person_id: Grace .* is inactive/);
  });

  it('refuses a range that ends before it starts, has ended, or spans more than a year', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera');
    const book = (starts_at: string, ends_at: string) =>
      domainRejection(ws.book({ person_id: ada.id, asset_ids: [camera.id], starts_at, ends_at }));
    expect((await book(at(2), at(1))).message).toBe('ends_at must be after starts_at');
    expect((await book(at(-3), at(-2))).message).toBe('ends_at must be in the future');
    expect((await book(at(1), at(1 + 367 * 24))).message).toMatch(/at most 366 days/);
  });

  it('refuses an asset checked out with a due date after the booking starts', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const grace = await ws.person('Grace');
    const camera = await ws.asset('Camera');
    await assets.update(
      ws.caller,
      camera.id,
      await received(UpdateAssetInput, { assigned_to_id: grace.id, due_at: at(30) }),
    );
    const refused = await domainRejection(
      ws.book({ person_id: ada.id, asset_ids: [camera.id], starts_at: at(24), ends_at: at(48) }),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/Camera .* is checked out until .*after the booking starts/);
    // Due back before the start: bookable.
    await expect(
      ws.book({ person_id: ada.id, asset_ids: [camera.id], starts_at: at(31), ends_at: at(48) }),
    ).resolves.toMatchObject({ status: 'confirmed' });
  });

  it('lists by range overlap, asset, person and status, paged by start', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const grace = await ws.person('Grace');
    const camera = await ws.asset('Camera');
    const lens = await ws.asset('Lens');
    const early = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(1),
      ends_at: at(2),
    });
    const late = await ws.book({
      person_id: grace.id,
      asset_ids: [lens.id],
      starts_at: at(10),
      ends_at: at(12),
    });
    const cancelled = await ws.book({
      person_id: ada.id,
      asset_ids: [lens.id],
      starts_at: at(20),
      ends_at: at(21),
    });
    await ws.cancel(cancelled.id);
    const ids = async (query: Record<string, string>) =>
      (await bookings.list(ws.caller, query)).data.map((booking) => booking.id);
    expect(await ids({})).toEqual([early.id, late.id, cancelled.id]);
    expect(await ids({ from: at(1.5), to: at(11) })).toEqual([early.id, late.id]);
    expect(await ids({ asset_id: lens.id })).toEqual([late.id, cancelled.id]);
    expect(await ids({ person_id: ada.id, status: 'confirmed' })).toEqual([early.id]);
    const page = await bookings.list(ws.caller, { page: '2', pageSize: '2' });
    expect(page).toMatchObject({ page: 2, pageSize: 2, total: 3 });
    expect(page.data.map((booking) => booking.id)).toEqual([cancelled.id]);
    expect((await domainRejection(bookings.list(ws.caller, { pageSize: '500' }))).message).toBe(
      'pageSize must be a whole number from 1 to 200',
    );
  });

  it('hands out every asset to the person, due at the end, as a check-out by hand would', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const lens = await ws.asset('Lens');
    const ada = await ws.person('Ada');
    const booking = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id, lens.id],
      starts_at: at(-0.5),
      ends_at: at(8),
    });
    const out = await ws.checkOut(booking.id);
    expect(out.status).toBe('checked_out');
    expect(out.checked_out_at).not.toBeNull();
    for (const id of [camera.id, lens.id]) {
      const asset = await assets.get(ws.caller, id);
      expect(asset.custody).toMatchObject({ person: { id: ada.id }, due_at: booking.ends_at });
    }
    expect(await events(ws.caller.workspaceId, 'assignment.')).toEqual([
      'assignment.checked_out',
      'assignment.checked_out',
    ]);
    expect(await events(ws.caller.workspaceId, 'booking.checked_out')).toHaveLength(1);
    const again = await domainRejection(ws.checkOut(booking.id));
    expect(again.message).toMatch(/is checked out; only a confirmed booking can be checked out/);

    // Some back, then the rest: checked in each, the last completes the booking.
    const partly = await ws.checkIn(booking.id, { asset_ids: [lens.id] });
    expect(partly.status).toBe('checked_out');
    expect(partly.assets.find((asset) => asset.id === lens.id)?.returned_at).not.toBeNull();
    expect((await assets.get(ws.caller, lens.id)).custody).toBeNull();
    const twice = await domainRejection(ws.checkIn(booking.id, { asset_ids: [lens.id] }));
    expect(twice.message).toBe(`${lens.id} is already back from booking ${booking.id}`);
    const done = await ws.checkIn(booking.id);
    expect(done.status).toBe('completed');
    expect(await events(ws.caller.workspaceId, 'assignment.checked_in')).toHaveLength(2);
    expect(await events(ws.caller.workspaceId, 'booking.completed')).toHaveLength(1);
    // Completed early: the rest of its range is free for another booking.
    await expect(
      ws.book({ person_id: ada.id, asset_ids: [camera.id], starts_at: at(1), ends_at: at(2) }),
    ).resolves.toMatchObject({ status: 'confirmed' });
  });

  it('checks out early when the assets are free, and names the booking in between when not', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const grace = await ws.person('Grace');
    const later = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(10),
      ends_at: at(12),
    });
    const between = await ws.book({
      person_id: grace.id,
      asset_ids: [camera.id],
      starts_at: at(2),
      ends_at: at(4),
    });
    const refused = await domainRejection(ws.checkOut(later.id));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain(between.id);
    await ws.cancel(between.id);
    expect((await ws.checkOut(later.id)).status).toBe('checked_out');
  });

  it('fires booking.overdue once at the end, and booking.no_show once after the grace, freeing the assets', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const tripod = await ws.asset('Tripod');
    const ada = await ws.person('Ada');
    const kept = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(-1),
      ends_at: at(1),
    });
    await ws.checkOut(kept.id);
    const missed = await ws.book({
      person_id: ada.id,
      asset_ids: [tripod.id],
      starts_at: at(0.5),
      ends_at: at(3),
    });
    const [one, two] = [engine(), engine()];
    // Two replicas, at a time past both dates (end + 1 h; start + grace + 1 h).
    const later = new Date(Date.now() + 2.6 * HOUR);
    await Promise.all([one.runDue(later), two.runDue(later)]);
    await one.runDue(later);
    expect((await bookings.get(ws.caller, kept.id)).status).toBe('overdue');
    expect((await bookings.get(ws.caller, missed.id)).status).toBe('no_show');
    expect(await events(ws.caller.workspaceId, 'booking.overdue')).toHaveLength(1);
    expect(await events(ws.caller.workspaceId, 'booking.no_show')).toHaveLength(1);
    expect(await events(ws.caller.workspaceId, 'assignment.overdue')).toHaveLength(1);
    // The no-show holds nothing: its slot can be booked again.
    await expect(
      ws.book({ person_id: ada.id, asset_ids: [tripod.id], starts_at: at(1), ends_at: at(2) }),
    ).resolves.toMatchObject({ status: 'confirmed' });
    // An overdue booking still comes back, and completes.
    expect((await ws.checkIn(kept.id)).status).toBe('completed');
  });

  it('fires no no-show for a booking checked out or cancelled in time', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const lens = await ws.asset('Lens');
    const ada = await ws.person('Ada');
    const picked = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(-0.1),
      ends_at: at(48),
    });
    await ws.checkOut(picked.id);
    const dropped = await ws.book({
      person_id: ada.id,
      asset_ids: [lens.id],
      starts_at: at(0.2),
      ends_at: at(48),
    });
    await ws.cancel(dropped.id);
    await engine().runDue(new Date(Date.now() + 3 * HOUR));
    expect(await events(ws.caller.workspaceId, 'booking.no_show')).toEqual([]);
    expect((await bookings.get(ws.caller, picked.id)).status).toBe('checked_out');
  });

  it('answers an asset’s busy stretches: its holding bookings and a check-out by hand, clipped', async () => {
    const ws = workspace();
    const camera = await ws.asset('Camera');
    const lens = await ws.asset('Lens');
    const ada = await ws.person('Ada');
    const grace = await ws.person('Grace');
    const soon = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(2),
      ends_at: at(4),
    });
    const dropped = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(5),
      ends_at: at(6),
    });
    await ws.cancel(dropped.id);
    const long = await ws.book({
      person_id: grace.id,
      asset_ids: [camera.id],
      starts_at: at(8),
      ends_at: at(100),
    });
    const range = { from: at(1), to: at(10) };
    const view = await bookings.availability(ws.caller, camera.id, range);
    expect(view.asset).toEqual({ id: camera.id, name: 'Camera', asset_tag: camera.asset_tag });
    expect(view.busy).toEqual([
      expect.objectContaining({
        kind: 'booking',
        booking_id: soon.id,
        from: soon.starts_at,
        to: soon.ends_at,
        person: { id: ada.id, name: 'Ada' },
      }),
      // Clipped to the range asked.
      expect.objectContaining({
        kind: 'booking',
        booking_id: long.id,
        from: long.starts_at,
        to: view.to,
      }),
    ]);
    // A check-out by hand, open-ended: busy from now on, with no end.
    await assets.update(
      ws.caller,
      lens.id,
      await received(UpdateAssetInput, { assigned_to_id: grace.id }),
    );
    const lensView = await bookings.availability(ws.caller, lens.id, range);
    expect(lensView.busy).toEqual([
      expect.objectContaining({
        kind: 'check_out',
        booking_id: null,
        from: lensView.from,
        to: null,
        person: { id: grace.id, name: 'Grace' },
      }),
    ]);
    // A booking's own check-out shows once, as the booking.
    await ws.checkOut(soon.id);
    const during = await bookings.availability(ws.caller, camera.id, range);
    expect(during.busy.map((busy) => busy.kind)).toEqual(['booking', 'booking']);
    expect(
      (
        await domainRejection(
          bookings.availability(ws.caller, camera.id, { from: at(3), to: at(2) }),
        )
      ).message,
    ).toBe('to must be after from');
    expect((await domainRejection(bookings.availability(ws.caller, 'ast_nope', {}))).code).toBe(
      'not_found',
    );
  });
});
