import type {
  AssetDetail,
  Booking,
  CalendarFeed,
  ErrorBody,
  IssuedCalendarFeed,
  MemberView,
  PersonDetail,
} from '@custodian/contracts';
import { eventually, freePort, httpRequest, type ApiResponse } from '@custodian/testing';
import ICAL from 'ical.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConsoleClient } from './support/console-client';
import { consoleMember, consoleOwner } from './support/console-sign-in';
import { TestStack, type Tenant } from './support/stack';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/**
 * A whole minute about `hours` from now, as people book: iCalendar times have no fraction of a
 * second, so a booking made to the millisecond would come back truncated.
 */
const at = (hours: number) =>
  new Date(Math.ceil((Date.now() + hours * HOUR) / MINUTE) * MINUTE).toISOString();
/** Fetches of one feed URL a minute, low so that the limit is reached in a test. */
const FETCHES_PER_MINUTE = 5;
/** Failed credentials a minute per client address, low for the same reason. */
const FAILURES_PER_MINUTE = 3;

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  status: string;
  start: string;
  end: string | null;
}

/** A feed as a calendar app reads it: ical.js, which refuses what is not iCalendar. */
function eventsOf(text: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    // Every time of the feed is UTC (a trailing Z), never floating or zoned.
    const utc = (property: string) => {
      const value = vevent.getFirstProperty(property);
      if (!value) return null;
      const time = value.getFirstValue() as ICAL.Time;
      expect(time.zone?.tzid).toBe('UTC');
      return time.toJSDate().toISOString();
    };
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      status: String(vevent.getFirstPropertyValue('status')),
      start: utc('dtstart')!,
      end: utc('dtend'),
    };
  });
}

/**
 * Issue 32, item 6: a member's calendar feed over HTTP. A signed-in member makes the secret URL
 * in the console; a calendar app fetches it with no cookie and no key (the test sends neither)
 * and gets the workspace's bookings and due dates as iCalendar; a new URL, a revocation and a
 * removal end a URL at once; workspaces never see each other's events; guessed and hammered
 * URLs meet the limits. The gateway sits behind one trusted proxy (the test), so each test
 * names its own client address and the per-address guard of one never counts another's.
 */
describe('calendar feeds (e2e)', () => {
  const stack = new TestStack({
    env: {
      TRUST_PROXY: '1',
      CALENDAR_FEED_FETCHES_PER_MINUTE: String(FETCHES_PER_MINUTE),
      UNAUTHENTICATED_RATE_PER_MINUTE: String(FAILURES_PER_MINUTE),
      // The gateway's request log is read below: it must never carry a feed's token.
      LOG_LEVEL: 'info',
      // The guard must not fail open on a busy machine while a test counts on it.
      REDIS_COMMAND_TIMEOUT_MS: '2000',
    },
  });
  let base = '';
  let host = '';
  let tenant: Tenant;
  let owner: ConsoleClient;
  let ada: PersonDetail;
  let addresses = 0;

  /** An address of its own for each caller, so the per-address guard counts only its own. */
  const newAddress = () => `203.0.113.${++addresses}`;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    host = `127.0.0.1:${port}`;
    Object.assign(stack.env, { PORT: String(port), PUBLIC_BASE_URL: base });
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    owner = await consoleOwner(stack, tenant.workspace.id, 'owner@calendar.example');
    ada = (await tenant.post<PersonDetail>('/people', { full_name: 'Ada Lovelace' })).body;
  }, 60_000);

  afterAll(() => stack.stop());

  /** What a calendar app sends: the URL, nothing else (no cookie, no key). */
  function fetchFeed(url: string, address: string): Promise<ApiResponse<ErrorBody | string>> {
    return httpRequest<ErrorBody | string>(url, { headers: { 'x-forwarded-for': address } });
  }

  async function issue(client: ConsoleClient): Promise<IssuedCalendarFeed> {
    const issued = await client.post<IssuedCalendarFeed>('/console/api/calendar-feed');
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(
      new RegExp(`^${base.replace(/\./g, '\\.')}/calendar/[A-Za-z0-9_-]{43}\\.ics$`),
    );
    return issued.body;
  }

  async function asset(of: Tenant, name: string, tag: string): Promise<AssetDetail> {
    const created = await of.post<AssetDetail>('/assets', { name, asset_tag: tag });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function book(of: Tenant, body: object): Promise<Booking> {
    const made = await of.post<Booking>('/bookings', body);
    expect(made.status).toBe(201);
    return made.body;
  }

  it('a member makes a URL; a calendar app with no cookie and no key reads the bookings and due dates', async () => {
    const camera = await asset(tenant, 'Camera', 'CAM-1');
    const tripod = await asset(tenant, 'Tripod', 'TRI-1');
    const lamp = await asset(tenant, 'Lamp', 'LMP-1');
    const laptop = await asset(tenant, 'Laptop', 'LAP-1');
    const shoot = await book(tenant, {
      person_id: ada.id,
      asset_ids: [camera.id, tripod.id],
      starts_at: at(24),
      ends_at: at(30),
      notes: 'Product shoot; bring spare batteries, and the big tripod',
    });
    const out = await book(tenant, {
      person_id: ada.id,
      asset_ids: [lamp.id],
      starts_at: at(2),
      ends_at: at(50),
    });
    expect((await tenant.post(`/bookings/${out.id}/check-out`, {})).status).toBe(200);
    const dropped = await book(tenant, {
      person_id: ada.id,
      asset_ids: [camera.id],
      starts_at: at(100),
      ends_at: at(110),
    });
    expect((await tenant.post(`/bookings/${dropped.id}/cancel`, {})).status).toBe(200);
    const due = at(72);
    const handed = await tenant.patch<AssetDetail>(`/assets/${laptop.id}`, {
      assigned_to_id: ada.id,
      due_at: due,
    });
    expect(handed.status).toBe(200);

    const before = await owner.get<CalendarFeed>('/console/api/calendar-feed');
    expect(before.body).toEqual({ active: false, created_at: null, last_used_at: null });
    const { url } = await issue(owner);

    const fetched = await fetchFeed(url, newAddress());
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(fetched.headers.get('cache-control')).toBe('private, no-store');
    const events = eventsOf(fetched.text);
    const byUid = new Map(events.map((event) => [event.uid, event]));
    expect(events).toHaveLength(3);

    expect(byUid.get(`${shoot.id}@${host}`)).toMatchObject({
      summary: 'Camera, Tripod for Ada Lovelace (confirmed)',
      status: 'CONFIRMED',
      start: shoot.starts_at,
      end: shoot.ends_at,
    });
    const shootText = byUid.get(`${shoot.id}@${host}`)!.description;
    expect(shootText).toContain('Product shoot; bring spare batteries, and the big tripod');
    expect(shootText).toContain('Camera (CAM-1), Tripod (TRI-1)');
    expect(shootText).toContain(`${base}/console/bookings/${shoot.id}`);
    expect(byUid.get(`${out.id}@${host}`)).toMatchObject({
      summary: 'Lamp for Ada Lovelace (checked out)',
      status: 'CONFIRMED',
      start: out.starts_at,
      end: out.ends_at,
    });
    // The hand-made check-out: one event at its due date, with no length.
    const dueEvent = events.find((event) => event.uid.startsWith(`checkout-${laptop.id}-`));
    expect(dueEvent).toMatchObject({
      summary: 'Laptop (LAP-1) due back from Ada Lovelace',
      status: 'CONFIRMED',
      start: due,
      end: null,
    });
    expect(dueEvent!.uid.endsWith(`@${host}`)).toBe(true);
    // Cancelled: never listed.
    expect(byUid.has(`${dropped.id}@${host}`)).toBe(false);

    // Fetched again: the same UIDs (a calendar app updates its events, it does not add more).
    const again = eventsOf((await fetchFeed(url, newAddress())).text);
    expect(again.map((event) => event.uid).sort()).toEqual(events.map((e) => e.uid).sort());

    // The card shows the use; the gateway's request log never shows the token.
    const after = await owner.get<CalendarFeed>('/console/api/calendar-feed');
    expect(after.body.active).toBe(true);
    expect(after.body.last_used_at).not.toBeNull();
    const token = /\/calendar\/([^/]+)\.ics$/.exec(url)![1]!;
    await eventually(() => {
      const log = readFileSync(path.join(stack.logDir, 'gateway.log'), 'utf8');
      expect(log).toContain('/calendar/[Redacted]');
      expect(log).not.toContain(token);
      return Promise.resolve();
    });
  });

  it('a new URL ends the old one at once; revoking ends the new one; both answer a bare 404', async () => {
    const first = await issue(owner);
    expect((await fetchFeed(first.url, newAddress())).status).toBe(200);
    const second = await issue(owner);
    expect(second.url).not.toBe(first.url);

    const old = await fetchFeed(first.url, newAddress());
    const made = await fetchFeed(`${base}/calendar/${'A'.repeat(43)}.ics`, newAddress());
    // No hint: a replaced URL answers exactly as one that never existed.
    expect([old.status, old.text]).toEqual([404, made.text]);
    expect(old.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
    expect((await fetchFeed(second.url, newAddress())).status).toBe(200);

    const revoked = await owner.delete<CalendarFeed>('/console/api/calendar-feed');
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ active: false, created_at: null, last_used_at: null });
    const gone = await fetchFeed(second.url, newAddress());
    expect([gone.status, gone.text]).toEqual([404, made.text]);
    // Revoking again is harmless.
    expect((await owner.delete('/console/api/calendar-feed')).status).toBe(200);
  });

  it('each workspace’s feed shows its own bookings only', async () => {
    const other = await stack.tenant('pro', 'write');
    const theirOwner = await consoleOwner(stack, other.workspace.id, 'owner@other.example');
    const grace = (await other.post<PersonDetail>('/people', { full_name: 'Grace Hopper' })).body;
    const theirs = await book(other, {
      person_id: grace.id,
      asset_ids: [(await asset(other, 'Drone', 'DRN-1')).id],
      starts_at: at(5),
      ends_at: at(6),
    });
    const ours = await book(tenant, {
      person_id: ada.id,
      asset_ids: [(await asset(tenant, 'Microphone', 'MIC-1')).id],
      starts_at: at(5),
      ends_at: at(6),
    });

    const ourUids = eventsOf((await fetchFeed((await issue(owner)).url, newAddress())).text).map(
      (event) => event.uid,
    );
    const theirUids = eventsOf(
      (await fetchFeed((await issue(theirOwner)).url, newAddress())).text,
    ).map((event) => event.uid);
    expect(ourUids).toContain(`${ours.id}@${host}`);
    expect(ourUids).not.toContain(`${theirs.id}@${host}`);
    expect(theirUids).toEqual([`${theirs.id}@${host}`]);
  });

  it('a member removed from the workspace: their URL stops working', async () => {
    const member = await consoleMember(tenant, 'member', 'member@calendar.example');
    const { url } = await issue(member);
    expect((await fetchFeed(url, newAddress())).status).toBe(200);
    const members = (await owner.get<MemberView[]>('/console/api/members')).body;
    const id = members.find((each) => each.email === 'member@calendar.example')!.id;
    expect((await owner.delete(`/console/api/members/${id}`)).status).toBe(200);
    expect((await fetchFeed(url, newAddress())).status).toBe(404);
  });

  it.each([
    ['a short token', '/calendar/abc.ics'],
    ['not .ics', `/calendar/${'a'.repeat(43)}.txt`],
    ['a character no token has', `/calendar/${'a'.repeat(42)}!.ics`],
    ['an encoded NUL', `/calendar/${'a'.repeat(42)}%00.ics`],
  ])('%s is the same bare 404, never a 500', async (_name, feedPath) => {
    const answer = await fetchFeed(`${base}${feedPath}`, newAddress());
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });

  it('a name longer than the router takes is refused before any route, never a 500', async () => {
    // Past the router's parameter length (100, far more than a token's 47): Fastify's own
    // refusal, a 400 from the gateway's frameworkErrors, before the feed is looked for.
    const answer = await fetchFeed(`${base}/calendar/${'a'.repeat(5_000)}.ics`, newAddress());
    expect(answer.status).toBe(400);
  });

  it(`a URL fetched more than ${FETCHES_PER_MINUTE} times a minute is refused (429) until the next minute`, async () => {
    const { url } = await issue(owner);
    const address = newAddress();
    // At most two windows' worth of successes before a refusal, whenever the minute turns.
    let refusal: ApiResponse<ErrorBody | string> | undefined;
    for (let i = 0; i < 2 * FETCHES_PER_MINUTE + 1 && !refusal; i++) {
      const answer = await fetchFeed(url, address);
      if (answer.status === 429) refusal = answer;
      else expect(answer.status).toBe(200);
    }
    expect(refusal).toBeDefined();
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((refusal!.body as ErrorBody).message).toContain(
      `fetched more than ${FETCHES_PER_MINUTE} times this minute`,
    );
  });

  it(`an address that guessed ${FAILURES_PER_MINUTE} tokens is refused (429), a good URL too; other addresses are not`, async () => {
    const { url } = await issue(owner);
    // The guesses and the check in one minute window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const guesser = newAddress();
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) {
      const guess = await fetchFeed(`${base}/calendar/${String(i).repeat(43)}.ics`, guesser);
      expect(guess.status).toBe(404);
    }
    const blocked = await fetchFeed(url, guesser);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await fetchFeed(url, newAddress())).status).toBe(200);
  }, 20_000);
});
