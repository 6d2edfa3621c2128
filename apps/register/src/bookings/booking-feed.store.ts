import {
  CALENDAR_FEED_BOOKING_STATUSES,
  type CalendarFeedBooking,
  type CalendarFeedCheckOut,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';

/*
 * What a calendar feed shows of a workspace (calendar/ asks): its bookings, and the due dates
 * of check-outs made by hand. Both read register.bookings and register.booking_assets, whose
 * SQL lives in this folder.
 */

/** The window and the rules a feed's events are read by. */
export interface FeedWindow {
  workspaceId: string;
  from: Date;
  to: Date;
  /** What counts as now: the events that end after it come first. */
  now: Date;
  /** A completed booking is listed when it completed at or after this. */
  completedSince: Date;
  /** Rows to read at most (the feed's cap plus one, to know it was reached). */
  limit: number;
}

/** The statuses that hold their assets: listed whenever they overlap the window. */
const HOLDING = CALENDAR_FEED_BOOKING_STATUSES.filter((status) => status !== 'completed');

export type FeedBookingRow = Omit<
  CalendarFeedBooking,
  'starts_at' | 'ends_at' | 'completed_at' | 'updated_at'
> & { starts_at: Date; ends_at: Date; completed_at: Date | null; updated_at: Date };

/**
 * The bookings a feed lists: holding ones overlapping [from, to), and completed ones that also
 * completed since `completedSince`. In the feed's order (feedOrder): those ending after `now`
 * by start, soonest first, then the rest by start, latest first; `limit` at most. Assets by
 * name, their names as they are now (or were, if binned).
 */
export function feedBookings(db: Queryable, window: FeedWindow): Promise<FeedBookingRow[]> {
  return queryRows<FeedBookingRow>(
    db,
    `SELECT b.id, b.status, b.starts_at, b.ends_at, p.full_name AS person_name, b.notes,
            b.completed_at, b.updated_at,
            (SELECT coalesce(json_agg(json_build_object(
                      'name', coalesce(a.name, d.name, ba.asset_id),
                      'asset_tag', coalesce(a.asset_tag, d.asset_tag, ''))
                    ORDER BY coalesce(a.name, d.name, ba.asset_id), ba.asset_id), '[]')
               FROM register.booking_assets ba
               LEFT JOIN register.assets a ON a.id = ba.asset_id
               LEFT JOIN register.deleted_assets d ON d.id = ba.asset_id
              WHERE ba.booking_id = b.id) AS assets
       FROM register.bookings b JOIN register.people p ON p.id = b.person_id
      WHERE b.workspace_id = $1 AND b.ends_at > $2 AND b.starts_at < $3
        AND (b.status = ANY($4::text[]) OR (b.status = 'completed' AND b.completed_at >= $5))
      ORDER BY b.ends_at <= $6, CASE WHEN b.ends_at > $6 THEN b.starts_at END, b.starts_at DESC,
               b.id
      LIMIT $7`,
    [
      window.workspaceId,
      window.from,
      window.to,
      HOLDING,
      window.completedSince,
      window.now,
      window.limit,
    ],
  );
}

export type FeedCheckOutRow = Omit<CalendarFeedCheckOut, 'assigned_at' | 'due_at'> & {
  assigned_at: Date;
  due_at: Date;
};

/**
 * The check-outs made by hand whose due date falls in [from, to): not those a booking made
 * (its asset is out with a booking of the same person, which the feed lists already). In the
 * feed's order by due date; `limit` at most.
 */
export function feedCheckOuts(db: Queryable, window: FeedWindow): Promise<FeedCheckOutRow[]> {
  return queryRows<FeedCheckOutRow>(
    db,
    `SELECT a.id AS asset_id, a.name AS asset_name, a.asset_tag, p.full_name AS person_name,
            a.assigned_at, a.custody_due_at AS due_at
       FROM register.assets a JOIN register.people p ON p.id = a.assigned_to_id
      WHERE a.workspace_id = $1 AND a.custody_due_at >= $2 AND a.custody_due_at < $3
        AND a.assigned_at IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM register.booking_assets ba JOIN register.bookings b ON b.id = ba.booking_id
           WHERE ba.workspace_id = $1 AND ba.asset_id = a.id AND ba.returned_at IS NULL
             AND b.status IN ('checked_out', 'overdue') AND b.person_id = a.assigned_to_id)
      ORDER BY a.custody_due_at <= $4, CASE WHEN a.custody_due_at > $4 THEN a.custody_due_at END,
               a.custody_due_at DESC, a.id
      LIMIT $5`,
    [window.workspaceId, window.from, window.to, window.now, window.limit],
  );
}
