import type { Client } from 'pg';
import type { SeedTimes } from './read-seed';

/** People the seeded bookings are for, in the big workspace. */
export const BOOKING_PEOPLE = 1000;

/** The seeded bookings lie in the weeks from 52 before the anchor's to 52 after. */
export const BOOKING_WEEKS_EACH_SIDE = 52;

/**
 * The busy asset holds one booking a day over the whole span, 8 hours from 4 hours before the
 * hour of the seed, so that one of them is out as the bench runs.
 */
export const BUSY_ASSET_BOOKINGS = 2 * BOOKING_WEEKS_EACH_SIDE * 7;

/** The longest seeded booking, hours; each asset's bookings are a round of the span apart. */
const LONGEST_HOURS = 72;

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** Monday 00:00 UTC of the week of `now`: the middle of the seeded span. */
export function weekAnchor(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** `count` consecutive weeks [from, to) starting `first` weeks from the anchor's. */
export function weeks(anchor: Date, first: number, count: number): Array<{ from: Date; to: Date }> {
  return Array.from({ length: count }, (_, i) => {
    const from = new Date(anchor.getTime() + (first + i) * WEEK_MS);
    return { from, to: new Date(from.getTime() + WEEK_MS) };
  });
}

/** How the bookings spread over the assets: the rest of them, after the busy asset's. */
export interface BookingSpread {
  busy: number;
  rest: number;
  /** Each of the other assets holds at most this many bookings, one per round of the span. */
  rounds: number;
  /** Minutes of a round; a booking starts in its first `roundMinutes - LONGEST` minutes. */
  roundMinutes: number;
}

/**
 * `bookings` over `assets` assets: the busy asset's share (up to BUSY_ASSET_BOOKINGS, at most a
 * tenth), the rest one per other asset per round of the 104-week span. A round must hold the
 * longest booking, or an asset's bookings could overlap: refused when there are too few assets.
 */
export function bookingSpread(assets: number, bookings: number): BookingSpread {
  if (assets < 2) throw new Error('BENCH_ASSETS: the booking seed needs 2 assets or more');
  const busy = Math.min(BUSY_ASSET_BOOKINGS, Math.floor(bookings / 10));
  const rest = bookings - busy;
  const rounds = Math.max(1, Math.ceil(rest / (assets - 1)));
  const spanMinutes = 2 * BOOKING_WEEKS_EACH_SIDE * 7 * 24 * 60;
  const roundMinutes = Math.floor(spanMinutes / rounds);
  if (roundMinutes < 2 * LONGEST_HOURS * 60) {
    throw new Error(
      `BENCH_BOOKINGS: ${bookings} bookings over ${assets} assets put ${rounds} on each; ` +
        `at most ${Math.floor(spanMinutes / (2 * LONGEST_HOURS * 60))} fit`,
    );
  }
  return { busy, rest, rounds, roundMinutes };
}

/**
 * Bookings in the workspace seeded by seedWorkspace(`idPrefix`) (assets `ast_<prefix><n>`, n
 * from 1), set-based: BOOKING_PEOPLE people, then the busy asset `ast_<prefix>1`'s one booking
 * a day (today's checked out, the asset assigned to its person), then the rest spread over the other assets and the 104 weeks around `anchor`, each
 * with its one asset. Past ones are completed (their rows hold nothing), current ones checked
 * out, future ones confirmed, one in 25 cancelled: holding rows of one asset never overlap, as
 * booking_assets_no_overlap requires. Returns the busy asset's id.
 */
export async function seedBookings(
  client: Client,
  workspaceId: string,
  assets: number,
  bookings: number,
  idPrefix: string,
  anchor: Date,
): Promise<SeedTimes & { busyAssetId: string }> {
  const spread = bookingSpread(assets, bookings);
  const started = Date.now();
  const spanStart = new Date(anchor.getTime() - BOOKING_WEEKS_EACH_SIDE * WEEK_MS);
  await client.query(
    `INSERT INTO register.people (id, workspace_id, full_name, email)
     SELECT 'per_' || $1::text || g, $2, 'Person ' || g, 'person' || g || '@bench.test'
       FROM generate_series(1, $3::int) g`,
    [idPrefix, workspaceId, BOOKING_PEOPLE],
  );
  await client.query(
    `UPDATE register.workspace_counters SET person_count = person_count + $2
      WHERE workspace_id = $1`,
    [workspaceId, BOOKING_PEOPLE],
  );
  await client.query(
    `CREATE TEMP TABLE seed_bookings AS
     SELECT 'bkg_' || $1::text || g AS id, asset_id, 'per_' || $1::text || (1 + g % $3::int) AS person_id,
            starts_at, ends_at,
            CASE WHEN g % 25 = 0 THEN 'cancelled'
                 WHEN ends_at <= now() THEN 'completed'
                 WHEN starts_at <= now() THEN 'checked_out'
                 ELSE 'confirmed' END AS status
       FROM (
         SELECT g, 'ast_' || $1::text || '1' AS asset_id, s AS starts_at,
                s + interval '8 hours' AS ends_at
           FROM (SELECT g, date_trunc('hour', now()) - interval '4 hours'
                           + make_interval(days => g - 1 - $4::int / 2) AS s
                   FROM generate_series(1, $4::int) g) d
         UNION ALL
         SELECT g, 'ast_' || $1::text || (2 + (k - 1) % ($6::int - 1)),
                s, s + make_interval(hours => 1 + (g * 31) % $8::int)
           FROM (SELECT g, k, $2::timestamptz + make_interval(
                          mins => (((k - 1) / ($6::int - 1)) * $7::int
                                   + (k::bigint * 7919) % ($7::int - $8::int * 60 - 60))::int) AS s
                   FROM (SELECT $4::int + k AS g, k FROM generate_series(1, $5::int) k) n) r
       ) b`,
    [
      idPrefix,
      spanStart,
      BOOKING_PEOPLE,
      spread.busy,
      spread.rest,
      assets,
      spread.roundMinutes,
      LONGEST_HOURS,
    ],
  );
  await client.query(
    `INSERT INTO register.bookings (id, workspace_id, person_id, status, starts_at, ends_at,
                                    cancel_reason, cancelled_at, checked_out_at, completed_at,
                                    created_at, updated_at, no_show_at, created_by, confirmed_at)
     SELECT id, $1, person_id, status, starts_at, ends_at,
            CASE WHEN status = 'cancelled' THEN 'cancelled' END,
            CASE WHEN status = 'cancelled' THEN starts_at - interval '1 day' END,
            CASE WHEN status IN ('checked_out', 'completed') THEN starts_at END,
            CASE WHEN status = 'completed' THEN ends_at END,
            starts_at - interval '7 days', starts_at - interval '7 days',
            starts_at + interval '60 minutes', 'bench', starts_at - interval '7 days'
       FROM seed_bookings`,
    [workspaceId],
  );
  await client.query(
    `INSERT INTO register.booking_assets (booking_id, asset_id, workspace_id, during, holds,
                                          returned_at)
     SELECT id, asset_id, $1, tstzrange(starts_at, ends_at),
            status IN ('confirmed', 'checked_out'),
            CASE WHEN status = 'completed' THEN ends_at END
       FROM seed_bookings`,
    [workspaceId],
  );
  // The busy asset is out now, with the person of its booking of the day (as checking the
  // booking out assigns it): its availability reads the check-out branch too.
  await client.query(
    `UPDATE register.assets a
        SET assigned_to_id = s.person_id, assigned_at = s.starts_at, custody_due_at = s.ends_at
       FROM seed_bookings s
      WHERE a.id = s.asset_id AND s.asset_id = $1 AND s.status = 'checked_out'`,
    [`ast_${idPrefix}1`],
  );
  await client.query('DROP TABLE seed_bookings');
  const insertMs = Date.now() - started;
  const settled = Date.now();
  for (const table of ['people', 'bookings', 'booking_assets']) {
    await client.query(`VACUUM ANALYZE register.${table}`);
  }
  await client.query('CHECKPOINT');
  return { insertMs, vacuumMs: Date.now() - settled, busyAssetId: `ast_${idPrefix}1` };
}

/** How many bookings of the workspace overlap [from, to): what a week's list counts. */
export async function bookingsIn(
  client: Client,
  workspaceId: string,
  from: Date,
  to: Date,
): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM register.bookings
      WHERE workspace_id = $1 AND ends_at > $2 AND starts_at < $3`,
    [workspaceId, from, to],
  );
  return rows[0]?.n ?? 0;
}
