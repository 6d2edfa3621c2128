import type { EventEnvelope, PublishedEvent } from '@custodian/contracts';
import type { DataSource, EntityManager } from 'typeorm';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

/**
 * The one lock every append takes and holds to its commit: positions are then taken, and
 * committed, in one order. Advisory locks are per database, like the feed.
 */
const APPEND_LOCK = `hashtext('custodian.delivery.event_feed')`;

/**
 * Appends events to the feed in the order given, each once: an event the feed already holds
 * (a redelivered message) keeps its first position. The lock is held from before the first
 * position is taken until the commit, so a transaction that takes positions after another's
 * commits after it: a reader never sees position N + 1 while N can still commit.
 */
export async function appendToFeed(
  db: DataSource,
  events: readonly PublishedEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
    const rows = await tx.query<Array<{ position: string }>>(
      `INSERT INTO delivery.event_feed (position, event_id, workspace_id, event, payload)
       SELECT nextval('delivery.event_feed_position'), e.id, e.workspace_id, e.event, e.payload
       FROM (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])
           WITH ORDINALITY AS e(id, workspace_id, event, payload, n)
         WHERE NOT EXISTS (SELECT 1 FROM delivery.event_feed f WHERE f.event_id = e.id)
         ORDER BY n
       ) e
       ON CONFLICT (event_id) DO NOTHING
       RETURNING position`,
      [
        events.map((event) => event.id),
        events.map((event) => event.workspace_id),
        events.map((event) => event.event),
        events.map((event) => JSON.stringify(envelopeOf(event))),
      ],
    );
    return rows.length;
  });
}

/** The envelope a webhook delivers: what the feed gives back. */
export function envelopeOf(event: PublishedEvent): EventEnvelope {
  return { id: event.id, event: event.event, created_at: event.created_at, data: event.data };
}

export interface FeedScan {
  /** The workspace's events after the position, at most `scan` of them, in position order. */
  rows: Array<{ position: bigint; event: string; payload: EventEnvelope }>;
  /**
   * The feed's end as this read saw it: every event at or below it is committed and was
   * visible to the same statement (never below the horizon, so it never goes back).
   */
  head: bigint;
  /** Every event at or below this position has been pruned. */
  horizon: bigint;
}

/**
 * One statement, so one snapshot: the workspace's events after `after` (at most `scan`) and the feed's head as that same snapshot saw it. A head read by a
 * second statement could include an event the first did not see, and a cursor set to it would
 * skip that event.
 */
export async function scanFeed(
  db: Queryable,
  workspaceId: string,
  after: bigint,
  scan: number,
): Promise<FeedScan> {
  const rows = await db.query<
    Array<{
      head: string;
      horizon: string;
      position: string | null;
      event: string | null;
      payload: EventEnvelope | null;
    }>
  >(
    `SELECT greatest(h.head, z.pruned_through)::text AS head, z.pruned_through::text AS horizon,
            s.position::text AS position, s.event, s.payload
     FROM (SELECT coalesce(max(position), 0) AS head FROM delivery.event_feed) h
     CROSS JOIN delivery.event_feed_horizon z
     LEFT JOIN LATERAL (
       SELECT position, event, payload FROM delivery.event_feed
       WHERE workspace_id = $1 AND position > $2::bigint
       ORDER BY position
       LIMIT $3
     ) s ON true
     ORDER BY s.position`,
    [workspaceId, after.toString(), scan],
  );
  const first = rows[0];
  if (!first) throw new Error('delivery.event_feed_horizon has no row');
  return {
    head: BigInt(first.head),
    horizon: BigInt(first.horizon),
    rows: rows.flatMap((row) =>
      row.position === null || row.event === null || row.payload === null
        ? []
        : [{ position: BigInt(row.position), event: row.event, payload: row.payload }],
    ),
  };
}

/** The oldest event of the workspace the feed still keeps, for a 410's message. */
export async function oldestKept(
  db: Queryable,
  workspaceId: string,
): Promise<{ id: string; created_at: string } | null> {
  const [row] = await db.query<Array<{ id: string; created_at: string }>>(
    `SELECT payload->>'id' AS id, payload->>'created_at' AS created_at FROM delivery.event_feed
     WHERE workspace_id = $1 ORDER BY position LIMIT 1`,
    [workspaceId],
  );
  return row ?? null;
}

/**
 * Prunes what was stored before `cutoff`, oldest first, `batch` rows at a time; returns how
 * many went. Each batch moves the horizon to the last position it deletes in the same
 * transaction, so a reader either still finds an event or is told (410) that it is gone.
 * Positions follow storing order, so the oldest rows are the lowest positions; a batch stops at
 * the first row stored on or after the cutoff.
 */
export async function pruneFeed(db: DataSource, cutoff: Date, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const gone = await db.transaction(async (tx) => {
      const [bound] = await tx.query<Array<{ through: string | null }>>(
        `SELECT max(position)::text AS through FROM (
           SELECT position, stored_at FROM delivery.event_feed ORDER BY position LIMIT $1
         ) b WHERE stored_at < $2`,
        [batch, cutoff],
      );
      if (!bound?.through) return 0;
      await tx.query(
        `UPDATE delivery.event_feed_horizon
         SET pruned_through = greatest(pruned_through, $1::bigint), pruned_at = now()`,
        [bound.through],
      );
      // TypeORM's Postgres driver answers a DELETE with [rows, affectedCount].
      const [, count] = await tx.query<[unknown[], number]>(
        `DELETE FROM delivery.event_feed WHERE position <= $1::bigint`,
        [bound.through],
      );
      return count;
    });
    deleted += gone;
    if (gone < batch) return deleted;
  }
}
