import { CALENDAR_FEED_LAST_USED_PRECISION_MS, type CalendarFeedOwner } from '@custodian/contracts';
import { queryOne, queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { CalendarFeedEntity } from './calendar-feed.entity';

/* register.calendar_feeds: its SQL and row types. */

export type FeedRow = Pick<CalendarFeedEntity, 'created_at' | 'last_used_at'>;

/** The member's feed, if they have one. */
export async function findFeed(
  db: Queryable,
  workspaceId: string,
  memberId: string,
): Promise<FeedRow | undefined> {
  const [row] = await queryRows<FeedRow>(
    db,
    `SELECT created_at, last_used_at FROM register.calendar_feeds
      WHERE member_id = $1 AND workspace_id = $2`,
    [memberId, workspaceId],
  );
  return row;
}

/**
 * The member's feed with a new token: made, or its old token replaced (that URL stops working
 * with the commit), created now and not used yet.
 */
export function putFeed(
  tx: EntityManager,
  workspaceId: string,
  memberId: string,
  tokenHash: Buffer,
): Promise<FeedRow> {
  return queryOne<FeedRow>(
    tx,
    `INSERT INTO register.calendar_feeds (member_id, workspace_id, token_hash)
     VALUES ($1, $2, $3)
     ON CONFLICT ON CONSTRAINT calendar_feeds_pkey DO UPDATE
       SET token_hash = EXCLUDED.token_hash, created_at = now(), last_used_at = NULL
     RETURNING created_at, last_used_at`,
    [memberId, workspaceId, tokenHash],
  );
}

export async function deleteFeed(
  tx: EntityManager,
  workspaceId: string,
  memberId: string,
): Promise<void> {
  await tx.query(`DELETE FROM register.calendar_feeds WHERE member_id = $1 AND workspace_id = $2`, [
    memberId,
    workspaceId,
  ]);
}

/**
 * Whose feed the token's hash opens: an active member's, or none. The same statement marks
 * the feed used, unless it was marked within the last minute: a calendar app polling every
 * few seconds writes the row once a minute, not on every fetch.
 */
export async function openFeed(
  db: Queryable,
  tokenHash: Buffer,
): Promise<CalendarFeedOwner | undefined> {
  const [row] = await queryRows<CalendarFeedOwner>(
    db,
    `WITH feed AS (
       SELECT f.member_id, f.workspace_id
         FROM register.calendar_feeds f
         JOIN register.members m ON m.id = f.member_id AND m.status = 'active'
        WHERE f.token_hash = $1),
     used AS (
       UPDATE register.calendar_feeds f SET last_used_at = now()
         FROM feed
        WHERE f.member_id = feed.member_id
          AND (f.last_used_at IS NULL
               OR f.last_used_at <= now() - $2::int * interval '1 millisecond')
        RETURNING 1)
     SELECT workspace_id, member_id FROM feed`,
    [tokenHash, CALENDAR_FEED_LAST_USED_PRECISION_MS],
  );
  return row;
}
