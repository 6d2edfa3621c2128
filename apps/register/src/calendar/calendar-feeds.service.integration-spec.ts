import {
  CheckInBookingInput,
  CreateAssetInput,
  CreateBookingInput,
  CreatePersonInput,
  UpdateAssetInput,
  type CallerContext,
} from '@custodian/contracts';
import { OutboxWriter, planCopyOf } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import {
  createMigratedDatabase,
  domainRejection,
  received,
  testCaller,
  type ClientBody,
  type MigratedDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AssetsService } from '../assets/assets.service';
import { BookingsService } from '../bookings/bookings.service';
import { loadRegisterConfig } from '../config/register-config';
import { registerDataSource } from '../database/data-source';
import { Mailer } from '../mail/mailer';
import { MembersService } from '../members/members.service';
import { migrateRegister } from '../migrate';
import { PeopleService } from '../people/people.service';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { CalendarFeedsService } from './calendar-feeds.service';

/**
 * Calendar feeds on a fresh migrated database: the URL's token kept only as a hash, a new URL
 * replacing the old, revoking, a removed member's feed, and the events a feed shows.
 */

let store: MigratedDatabase;
let db: DataSource;
let feeds: CalendarFeedsService;
let members: MembersService;
let mailer: Mailer;
let bookings: BookingsService;
let assets: AssetsService;
let people: PeopleService;

const writer = new OutboxWriter('register');
const activity = new ActivityLog('register');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE_URL = 'https://custodian.example';

beforeAll(async () => {
  Logger.overrideLogger(false);
  store = await createMigratedDatabase(migrateRegister, (url) => registerDataSource(url, 6));
  db = store.db;
  const config = loadRegisterConfig({
    DATABASE_URL: store.database.url,
    PUBLIC_BASE_URL: `${BASE_URL}/`,
  });
  const reads = new ReadTransactions(db);
  const writes = new WriteTransactions(db);
  mailer = new Mailer(config);
  feeds = new CalendarFeedsService(db, reads, config);
  members = new MembersService(
    db,
    writes,
    config,
    mailer,
    planCopyOf(db, { schema: 'register', reader: 'register' }),
    writer,
    reads,
    activity,
  );
  bookings = new BookingsService(reads, writes, writer, activity);
  assets = new AssetsService(reads, writes, writer, activity);
  people = new PeopleService(reads, writes, writer, activity);
}, 30_000);

afterAll(async () => {
  await mailer?.onApplicationShutdown();
  await store?.close();
});

/** A workspace with an owner (active at once, as `workspace create --owner-email` makes one). */
async function workspace() {
  const caller: CallerContext = testCaller();
  const owner = await members.createOwner({
    workspace: caller.workspaceId,
    email: `owner-${caller.workspaceId}@example.com`,
  });
  return {
    caller,
    owner: { workspace: caller.workspaceId, id: owner.id },
    asset: async (name: string, extra: ClientBody<CreateAssetInput> = {}) =>
      assets.create(caller, await received(CreateAssetInput, { name, ...extra })),
    person: async (full_name: string) =>
      people.create(caller, await received(CreatePersonInput, { full_name })),
    book: async (body: ClientBody<CreateBookingInput>) =>
      bookings.create(caller, await received(CreateBookingInput, body)),
  };
}

/** The token of a feed URL (`…/calendar/<token>.ics`). */
function tokenOf(url: string): string {
  const match = /^https:\/\/custodian\.example\/calendar\/([A-Za-z0-9_-]{43})\.ics$/.exec(url);
  if (!match) throw new Error(`not a feed URL: ${url}`);
  return match[1]!;
}

async function storedRow(memberId: string) {
  const [row] = await db.query<
    Array<{ token_hash: Buffer; created_at: Date; last_used_at: Date | null }>
  >(
    `SELECT token_hash, created_at, last_used_at FROM register.calendar_feeds
      WHERE member_id = $1`,
    [memberId],
  );
  return row;
}

const at = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('feed URLs', () => {
  it('makes a URL whose token is stored only as its SHA-256, and opens the member’s feed', async () => {
    const ws = await workspace();
    expect(await feeds.get(ws.owner)).toEqual({
      active: false,
      created_at: null,
      last_used_at: null,
    });
    const issued = await feeds.issue(ws.owner);
    const token = tokenOf(issued.url);
    expect(issued).toMatchObject({ active: true, last_used_at: null });
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const row = await storedRow(ws.owner.id);
    expect(row!.token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    // Nowhere in the table is the token itself, in any encoding a dump could show.
    const dump = JSON.stringify(
      await db.query(`SELECT *, encode(token_hash, 'escape') AS raw FROM register.calendar_feeds`),
    );
    expect(dump).not.toContain(token);

    expect(await feeds.open({ token })).toEqual({
      workspace_id: ws.owner.workspace,
      member_id: ws.owner.id,
    });
    const opened = await feeds.get(ws.owner);
    expect(opened).toMatchObject({ active: true, created_at: issued.created_at });
    expect(opened.last_used_at).not.toBeNull();
  });

  it('marks the feed used at most once a minute, not on every fetch', async () => {
    const ws = await workspace();
    const token = tokenOf((await feeds.issue(ws.owner)).url);
    await feeds.open({ token });
    const first = (await storedRow(ws.owner.id))!.last_used_at;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await feeds.open({ token });
    expect((await storedRow(ws.owner.id))!.last_used_at).toEqual(first);

    // A minute later (the row's last use moved back instead of waiting) it is written again.
    await db.query(
      `UPDATE register.calendar_feeds SET last_used_at = now() - interval '61 seconds'
        WHERE member_id = $1`,
      [ws.owner.id],
    );
    const before = Date.now();
    await feeds.open({ token });
    const written = (await storedRow(ws.owner.id))!.last_used_at!;
    expect(written.getTime()).toBeGreaterThanOrEqual(before - 1_000);
  });

  it('a new URL replaces the old one at once: the old token opens nothing', async () => {
    const ws = await workspace();
    const old = tokenOf((await feeds.issue(ws.owner)).url);
    await feeds.open({ token: old });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const renewed = await feeds.issue(ws.owner);
    const token = tokenOf(renewed.url);
    expect(token).not.toBe(old);

    const refused = await domainRejection(feeds.open({ token: old }));
    expect(refused.code).toBe('not_found');
    expect(refused.message).toBe('Calendar feed not found');
    expect(await feeds.get(ws.owner)).toEqual({
      active: true,
      created_at: renewed.created_at,
      last_used_at: null,
    });
    expect(await feeds.open({ token })).toMatchObject({ member_id: ws.owner.id });
    // Still one feed for the member.
    const [counted] = await db.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM register.calendar_feeds WHERE member_id = $1`,
      [ws.owner.id],
    );
    expect(counted!.count).toBe(1);
  });

  it('revoking stops the URL; revoking again is harmless', async () => {
    const ws = await workspace();
    const token = tokenOf((await feeds.issue(ws.owner)).url);
    expect(await feeds.revoke(ws.owner)).toEqual({
      active: false,
      created_at: null,
      last_used_at: null,
    });
    expect((await domainRejection(feeds.open({ token }))).code).toBe('not_found');
    expect(await storedRow(ws.owner.id)).toBeUndefined();
    expect(await feeds.revoke(ws.owner)).toMatchObject({ active: false });
  });

  it('a member removed from the workspace: their feed goes with them', async () => {
    const ws = await workspace();
    const other = await members.createOwner({
      workspace: ws.owner.workspace,
      email: `second-${ws.owner.workspace}@example.com`,
    });
    const mine = tokenOf((await feeds.issue({ workspace: ws.owner.workspace, id: other.id })).url);
    const kept = tokenOf((await feeds.issue(ws.owner)).url);
    await members.remove({ workspace: ws.owner.workspace, id: other.id, actor: ws.owner.id });

    expect((await domainRejection(feeds.open({ token: mine }))).code).toBe('not_found');
    expect(await storedRow(other.id)).toBeUndefined();
    // And they cannot make a new one.
    const refused = await domainRejection(
      feeds.issue({ workspace: ws.owner.workspace, id: other.id }),
    );
    expect(refused.code).toBe('forbidden');
    // The remover's feed is untouched.
    expect(await feeds.open({ token: kept })).toMatchObject({ member_id: ws.owner.id });
  });

  it('opens nothing for a member not active, or of another workspace', async () => {
    const ws = await workspace();
    const token = tokenOf((await feeds.issue(ws.owner)).url);
    await db.query(`UPDATE register.members SET status = 'invited' WHERE id = $1`, [ws.owner.id]);
    try {
      expect((await domainRejection(feeds.open({ token }))).code).toBe('not_found');
      expect((await domainRejection(feeds.issue(ws.owner))).code).toBe('forbidden');
    } finally {
      await db.query(`UPDATE register.members SET status = 'active' WHERE id = $1`, [ws.owner.id]);
    }
    const elsewhere = await workspace();
    const refused = await domainRejection(
      feeds.issue({ workspace: elsewhere.owner.workspace, id: ws.owner.id }),
    );
    expect(refused.code).toBe('forbidden');
    expect(
      await feeds.get({ workspace: elsewhere.owner.workspace, id: ws.owner.id }),
    ).toMatchObject({ active: false });
  });

  it.each([
    ['empty', ''],
    ['short', 'abc'],
    ['the right length, a character no token has', `${'a'.repeat(42)}!`],
    ['very long', 'a'.repeat(10_000)],
    ['a NUL', `${'a'.repeat(42)}\u0000`],
  ])('a malformed token (%s) is the same not_found as an unknown one', async (_name, token) => {
    const refused = await domainRejection(feeds.open({ token }));
    expect([refused.code, refused.message]).toEqual(['not_found', 'Calendar feed not found']);
  });
});

describe('the events a feed shows', () => {
  it('lists the workspace’s holding bookings and hand-made check-outs’ due dates in the window, no other workspace’s', async () => {
    const ws = await workspace();
    const camera = await ws.asset('Camera', { asset_tag: 'CAM-1' });
    const tripod = await ws.asset('Tripod', { asset_tag: 'TRI-1' });
    const lamp = await ws.asset('Lamp');
    const ada = await ws.person('Ada Lovelace');
    const grace = await ws.person('Grace Hopper');
    const shoot = await ws.book({
      person_id: ada.id,
      asset_ids: [tripod.id, camera.id],
      starts_at: at(DAY),
      ends_at: at(2 * DAY),
      notes: 'Product shoot',
    });
    const far = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(200 * DAY),
      ends_at: at(201 * DAY),
    });
    const dropped = await ws.book({
      person_id: grace.id,
      asset_ids: [lamp.id],
      starts_at: at(3 * DAY),
      ends_at: at(4 * DAY),
    });
    await bookings.cancel(ws.caller, dropped.id, { note: null });
    const due = at(5 * DAY);
    await assets.update(
      ws.caller,
      lamp.id,
      await received(UpdateAssetInput, { assigned_to_id: grace.id, due_at: due }),
    );
    // Another workspace's booking and check-out never show.
    const other = await workspace();
    const theirs = await other.asset('Theirs');
    const them = await other.person('Them');
    await other.book({
      person_id: them.id,
      asset_ids: [theirs.id],
      starts_at: at(DAY),
      ends_at: at(2 * DAY),
    });

    const feed = await feeds.events(ws.caller);
    expect(feed.base_url).toBe(BASE_URL);
    expect(feed.truncated).toBe(false);
    expect(feed.bookings).toEqual([
      {
        id: shoot.id,
        status: 'confirmed',
        starts_at: shoot.starts_at,
        ends_at: shoot.ends_at,
        person_name: 'Ada Lovelace',
        assets: [
          { name: 'Camera', asset_tag: 'CAM-1' },
          { name: 'Tripod', asset_tag: 'TRI-1' },
        ],
        notes: 'Product shoot',
        completed_at: null,
        updated_at: shoot.updated_at,
      },
    ]);
    expect(feed.check_outs).toEqual([
      expect.objectContaining({
        asset_id: lamp.id,
        asset_name: 'Lamp',
        person_name: 'Grace Hopper',
        due_at: due,
      }),
    ]);
    // 200 days ahead is past the window's 180; seen from 30 days on, it is inside (first: it
    // is to come), and the shoot is still within the 30 days back.
    const later = await feeds.events(ws.caller, new Date(Date.now() + 30 * DAY));
    expect(later.bookings.map((booking) => booking.id)).toEqual([far.id, shoot.id]);
  });

  it('a booking’s own check-out is its booking, not a second event; a completed one is listed for 30 days', async () => {
    const ws = await workspace();
    const camera = await ws.asset('Camera');
    const ada = await ws.person('Ada');
    const booking = await ws.book({
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(DAY),
      ends_at: at(2 * DAY),
    });
    await bookings.checkOut(ws.caller, booking.id);
    const out = await feeds.events(ws.caller);
    expect(out.bookings.map((b) => [b.id, b.status])).toEqual([[booking.id, 'checked_out']]);
    expect(out.check_outs).toEqual([]);

    await bookings.checkIn(ws.caller, booking.id, await received(CheckInBookingInput, {}));
    const done = await feeds.events(ws.caller);
    expect(done.bookings).toEqual([
      expect.objectContaining({ id: booking.id, status: 'completed' }),
    ]);
    expect(done.bookings[0]!.completed_at).not.toBeNull();
    // Seen 31 days on, its range still overlaps the window (which reaches 30 days back, to
    // before its end), but it completed more than 30 days before: it is gone.
    const month = await feeds.events(ws.caller, new Date(Date.now() + 31 * DAY));
    expect(month.bookings).toEqual([]);
  });

  it('orders what is on now and next first, soonest first, then the past, latest first', async () => {
    const ws = await workspace();
    const ada = await ws.person('Ada');
    const made = [];
    for (const day of [1, 2, 3, 4]) {
      const asset = await ws.asset(`Asset ${day}`);
      made.push(
        await ws.book({
          person_id: ada.id,
          asset_ids: [asset.id],
          starts_at: at(day * DAY),
          ends_at: at(day * DAY + HOUR),
        }),
      );
    }
    // Seen from between the second and the third: 3 and 4 to come, then 2 and 1 past.
    const feed = await feeds.events(ws.caller, new Date(Date.now() + 2.5 * DAY));
    expect(feed.bookings.map((booking) => booking.id)).toEqual(
      [made[2], made[3], made[1], made[0]].map((booking) => booking!.id),
    );
  });
});
