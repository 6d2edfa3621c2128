import {
  ApproveAssetRequestInput,
  CancelBookingInput,
  CreateAssetInput,
  CreateAssetRequestInput,
  CreateBookingInput,
  CreatePersonInput,
  RejectAssetRequestInput,
  UpdateAssetInput,
  UpdatePersonInput,
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
import { BookingsService } from '../bookings/bookings.service';
import { registerDataSource } from '../database/data-source';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { AssetRequestsService } from './asset-requests.service';

/**
 * Asset requests on a fresh migrated database: asking, the inbox and who sees what, and an
 * approval that checks out or books in one transaction with the request (or not at all).
 */

let store: MigratedDatabase;
let db: DataSource;
let requests: AssetRequestsService;
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
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
  bookings = new BookingsService(reads, writes, writer, activity);
  requests = new AssetRequestsService(reads, writes, writer, activity, assets, bookings);
}, 30_000);

afterAll(() => store?.close());

function workspace() {
  const key: CallerContext = testCaller();
  const workspaceId = key.workspaceId;
  return {
    key,
    workspaceId,
    member: async (role: MemberRole): Promise<CallerContext> => {
      const id = newId('usr');
      await db.query(
        `INSERT INTO register.members (id, workspace_id, email, role, status, invited_at)
         VALUES ($1, $2, $3, $4, 'active', now())`,
        [id, workspaceId, `${id}@example.com`, role],
      );
      return { ...key, keyId: `console:${id}`, actorName: `${id}@example.com` };
    },
    asset: async (name: string, category?: string) =>
      assets.create(
        key,
        await received(CreateAssetInput, { name, ...(category ? { category } : {}) }),
      ),
    person: async (full_name: string) =>
      people.create(key, await received(CreatePersonInput, { full_name })),
    ask: async (caller: CallerContext, body: ClientBody<CreateAssetRequestInput>) =>
      requests.create(caller, await received(CreateAssetRequestInput, body)),
    approve: async (
      caller: CallerContext,
      id: string,
      body: ClientBody<ApproveAssetRequestInput>,
    ) => requests.approve(caller, id, await received(ApproveAssetRequestInput, body)),
    reject: async (caller: CallerContext, id: string, note: string) =>
      requests.reject(caller, id, await received(RejectAssetRequestInput, { note })),
    book: async (body: ClientBody<CreateBookingInput>) =>
      bookings.create(key, await received(CreateBookingInput, body)),
  };
}

async function events(workspaceId: string): Promise<string[]> {
  const rows = await db.query<Array<{ event: string }>>(
    `SELECT event FROM register.outbox WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspaceId],
  );
  // Leave out the setup's own events (assets and people made for the test).
  return rows
    .map((row) => row.event)
    .filter((event) => !['asset.created', 'employee.created'].includes(event));
}

async function feed(recordId: string): Promise<string[]> {
  const rows = await db.query<Array<{ action: string }>>(
    `SELECT action FROM register.activity WHERE record_id = $1 ORDER BY at, id`,
    [recordId],
  );
  return rows.map((row) => row.action);
}

describe('asking', () => {
  it('asks for a given asset or any of a category, for now or a range: request.created', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada Lovelace');
    const camera = await ws.asset('Sony A7 IV', 'Cameras');
    const now = await ws.ask(ws.key, { person_id: ada.id, asset_id: camera.id, note: ' Shoot ' });
    expect(now).toMatchObject({
      status: 'pending',
      person: { id: ada.id, name: 'Ada Lovelace' },
      asset: { id: camera.id, name: 'Sony A7 IV', asset_tag: camera.asset_tag },
      category: null,
      starts_at: null,
      ends_at: null,
      note: 'Shoot',
      decision: null,
    });
    expect(now.id).toMatch(/^req_[0-9a-z]{26}$/);
    const range = { starts_at: at(24), ends_at: at(30) };
    const any = await ws.ask(ws.key, { person_id: ada.id, category: 'cameras', ...range });
    expect(any).toMatchObject({ asset: null, category: { name: 'Cameras' } });
    expect(any).toMatchObject(range);
    expect(await events(ws.workspaceId)).toEqual(['request.created', 'request.created']);
    expect(await feed(now.id)).toEqual(['created']);
    expect(await requests.get(ws.key, now.id)).toEqual(now);
    const page = await requests.list(ws.key, { status: 'pending' });
    expect(page.data.map((request) => request.id)).toEqual([any.id, now.id]);
  });

  it('refuses what cannot be asked for, naming the field, and writes nothing', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const gone = await ws.person('Gone');
    await people.update(ws.key, gone.id, await received(UpdatePersonInput, { status: 'inactive' }));
    const camera = await ws.asset('Camera');
    const retired = await ws.asset('Old camera');
    await assets.update(
      ws.key,
      retired.id,
      await received(UpdateAssetInput, { status: 'retired' }),
    );
    const cases: Array<[ClientBody<CreateAssetRequestInput>, RegExp]> = [
      [{ person_id: ada.id }, /asset_id or category: give exactly one/],
      [{ person_id: ada.id, asset_id: camera.id, category: 'Cameras' }, /exactly one/],
      [{ person_id: ada.id, category: 'Drones' }, /category: no category named "Drones"/],
      [{ person_id: ada.id, asset_id: 'ast_nope' }, /asset_id: asset ast_nope not found/],
      [{ person_id: ada.id, asset_id: retired.id }, /asset_id: Old camera .* is retired/],
      [{ person_id: gone.id, asset_id: camera.id }, /person_id: Gone .* is inactive/],
      [
        { person_id: ada.id, asset_id: camera.id, starts_at: at(1) },
        /ends_at: give starts_at and ends_at together/,
      ],
      [
        { person_id: ada.id, asset_id: camera.id, starts_at: at(-3), ends_at: at(-2) },
        /ends_at must be in the future/,
      ],
      [
        { person_id: ada.id, asset_id: camera.id, starts_at: at(3), ends_at: at(2) },
        /ends_at must be after starts_at/,
      ],
    ];
    for (const [body, message] of cases) {
      const error = await domainRejection(ws.ask(ws.key, body));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(message);
    }
    // The setup's two PATCHes only.
    expect(await events(ws.workspaceId)).toEqual(['employee.offboarded', 'asset.updated']);
    expect((await requests.list(ws.key, {})).total).toBe(0);
  });

  it('members see their own requests only; managers and keys see the inbox', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera');
    const alice = await ws.member('member');
    const bob = await ws.member('member');
    const manager = await ws.member('manager');
    const mine = await ws.ask(alice, { person_id: ada.id, asset_id: camera.id });
    const theirs = await ws.ask(bob, { person_id: ada.id, asset_id: camera.id });
    expect((await requests.list(alice, {})).data.map((r) => r.id)).toEqual([mine.id]);
    expect((await domainRejection(requests.get(alice, theirs.id))).code).toBe('not_found');
    expect((await requests.list(manager, {})).total).toBe(2);
    expect((await requests.list(ws.key, { status: 'pending' })).total).toBe(2);
    // A member decides nothing: not theirs (404), nor their own (403).
    expect((await domainRejection(ws.reject(alice, theirs.id, 'no'))).code).toBe('not_found');
    expect((await domainRejection(ws.approve(alice, mine.id, {}))).code).toBe('forbidden');
    expect((await requests.get(ws.key, mine.id)).status).toBe('pending');
  });
});

describe('approving', () => {
  it('checks the asset out now, as a PATCH would, after request.approved', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera');
    const manager = await ws.member('manager');
    const asked = await ws.ask(ws.key, {
      person_id: ada.id,
      asset_id: camera.id,
      starts_at: at(-1),
      ends_at: at(5),
    });
    const approved = await ws.approve(manager, asked.id, { fulfil_by: 'check_out', note: 'Enjoy' });
    expect(approved).toMatchObject({
      status: 'approved',
      decision: {
        note: 'Enjoy',
        asset: { id: camera.id },
        fulfilled_by: 'check_out',
        booking_id: null,
      },
    });
    const asset = await assets.get(ws.key, camera.id);
    expect(asset.assigned_to?.id).toBe(ada.id);
    // Due back at the request's end.
    expect(asset.custody?.due_at).toBe(asked.ends_at);
    expect(await events(ws.workspaceId)).toEqual([
      'request.created',
      'request.approved',
      'asset.updated',
      'assignment.checked_out',
    ]);
    expect(await feed(asked.id)).toEqual(['created', 'approved']);
    const again = await domainRejection(ws.approve(manager, asked.id, {}));
    expect(again.code).toBe('conflict');
    expect(again.message).toMatch(/already approved/);
  });

  it('books the asset for the range, confirmed at once, the asker’s own booking', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera', 'Cameras');
    const alice = await ws.member('member');
    const asked = await ws.ask(alice, {
      person_id: ada.id,
      category: 'Cameras',
      starts_at: at(48),
      ends_at: at(56),
    });
    const noAsset = await domainRejection(ws.approve(ws.key, asked.id, {}));
    expect(noAsset.message).toMatch(/asset_id: request .* asks for any Cameras; name the asset/);
    const approved = await ws.approve(ws.key, asked.id, { asset_id: camera.id });
    expect(approved.decision?.fulfilled_by).toBe('booking');
    const bookingId = approved.decision?.booking_id ?? '';
    const booking = await bookings.get(ws.key, bookingId);
    expect(booking).toMatchObject({
      status: 'confirmed',
      person: { id: ada.id },
      assets: [{ id: camera.id }],
      starts_at: asked.starts_at,
      ends_at: asked.ends_at,
    });
    const approvedEvents = await db.query<Array<{ data: unknown }>>(
      `SELECT data FROM register.outbox WHERE workspace_id = $1 AND event = 'request.approved'`,
      [ws.workspaceId],
    );
    expect(JSON.stringify(approvedEvents[0]?.data)).toContain(bookingId);
    expect(await events(ws.workspaceId)).toEqual([
      'request.created',
      'request.approved',
      'booking.created',
      'booking.confirmed',
    ]);
    // The member who asked may cancel it as their own.
    const cancelled = await bookings.cancel(
      alice,
      bookingId,
      await received(CancelBookingInput, {}),
    );
    expect(cancelled.status).toBe('cancelled');
  });

  it('refuses an asset of another category, or one out or booked, leaving the request pending', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const grace = await ws.person('Grace');
    const camera = await ws.asset('Camera', 'Cameras');
    const laptop = await ws.asset('Laptop', 'Laptops');
    const byCategory = await ws.ask(ws.key, { person_id: ada.id, category: 'Cameras' });
    const wrong = await domainRejection(ws.approve(ws.key, byCategory.id, { asset_id: laptop.id }));
    expect(wrong.code).toBe('invalid_input');
    expect(wrong.message).toMatch(/asset_id: Laptop .* is not in category Cameras/);
    // Out with someone else: a 409 naming the holder.
    const give = async (id: string | null) =>
      assets.update(ws.key, camera.id, await received(UpdateAssetInput, { assigned_to_id: id }));
    await give(grace.id);
    const out = await domainRejection(ws.approve(ws.key, byCategory.id, { asset_id: camera.id }));
    expect(out.code).toBe('conflict');
    expect(out.message).toMatch(/Camera .* is checked out to Grace/);
    await give(null);
    // Booked over the range asked: the booking refuses, and nothing of the approval is written.
    const held = await ws.book({
      person_id: grace.id,
      asset_ids: [camera.id],
      starts_at: at(10),
      ends_at: at(20),
    });
    const ranged = await ws.ask(ws.key, {
      person_id: ada.id,
      asset_id: camera.id,
      starts_at: at(15),
      ends_at: at(25),
    });
    // A check-out now of an asset a booking holds from now is refused by the custody rule.
    const nowBooked = await ws.book({
      person_id: grace.id,
      asset_ids: [laptop.id],
      starts_at: at(-1),
      ends_at: at(2),
    });
    const laptopNow = await ws.ask(ws.key, { person_id: ada.id, asset_id: laptop.id });
    const before = await events(ws.workspaceId);
    const overlap = await domainRejection(ws.approve(ws.key, ranged.id, {}));
    expect(overlap.code).toBe('conflict');
    expect(overlap.message).toContain(held.id);
    const booked = await domainRejection(ws.approve(ws.key, laptopNow.id, {}));
    expect(booked.code).toBe('conflict');
    expect(booked.message).toContain(nowBooked.id);
    expect(await events(ws.workspaceId)).toEqual(before);
    for (const id of [byCategory.id, ranged.id, laptopNow.id]) {
      expect((await requests.get(ws.key, id)).status).toBe('pending');
      expect(await feed(id)).toEqual(['created']);
    }
  });

  it('two managers deciding one request at once: one wins, the other is told', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera');
    const asked = await ws.ask(ws.key, { person_id: ada.id, asset_id: camera.id });
    const results = await Promise.allSettled([
      ws.approve(ws.key, asked.id, {}),
      ws.reject(ws.key, asked.id, 'Not this week'),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
    const decided = await requests.get(ws.key, asked.id);
    expect(['approved', 'rejected']).toContain(decided.status);
    const kinds = (await events(ws.workspaceId)).filter((event) => event.startsWith('request.'));
    expect(kinds).toHaveLength(2);
  });
});

describe('rejecting', () => {
  it('rejects with the reason the asker reads: request.rejected', async () => {
    const ws = workspace();
    const ada = await ws.person('Ada');
    const camera = await ws.asset('Camera');
    const alice = await ws.member('member');
    const asked = await ws.ask(alice, { person_id: ada.id, asset_id: camera.id });
    const rejected = await ws.reject(ws.key, asked.id, '  All cameras are out  ');
    expect(rejected).toMatchObject({
      status: 'rejected',
      decision: { note: 'All cameras are out', asset: null, fulfilled_by: null, booking_id: null },
    });
    expect(await requests.get(alice, asked.id)).toEqual(rejected);
    expect(await events(ws.workspaceId)).toEqual(['request.created', 'request.rejected']);
    expect(await feed(asked.id)).toEqual(['created', 'rejected']);
    expect((await domainRejection(ws.approve(ws.key, asked.id, {}))).message).toMatch(
      /already rejected/,
    );
  });
});
