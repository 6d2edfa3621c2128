import type { Booking, BookingCancelReason, BookingStatus } from '@custodian/contracts';
import { DomainError } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import {
  BOOKING_COLUMNS,
  BUSY_INTERVALS,
  bookingPageSql,
  type BookingFilter,
} from '@custodian/register-sql';
import type { EntityManager } from 'typeorm';
import type { BookingEntity } from './booking.entity';

/*
 * register.bookings and register.booking_assets: their SQL, their row types and the view a
 * row makes.
 */

export type NewBookingRow = Pick<
  BookingEntity,
  | 'id'
  | 'workspace_id'
  | 'person_id'
  | 'status'
  | 'starts_at'
  | 'ends_at'
  | 'notes'
  | 'no_show_at'
  | 'created_by'
>;

/** A booking with its person's name and its assets as they are now (or were, if binned). */
export type BookingRow = BookingEntity & {
  person_name: string;
  /** returned_at as the view has it (ISO, UTC, milliseconds), made by Postgres. */
  assets: Array<{ id: string; name: string; asset_tag: string; returned_at: string | null }>;
};

/** One asset's booking that stands in the way of another over [starts_at, ends_at). */
export interface ConflictRow {
  booking_id: string;
  asset_id: string;
  asset_name: string;
  starts_at: Date;
  ends_at: Date;
}

/**
 * The booking's row and one row per asset, holding its range: the exclusion constraint
 * (booking_assets_no_overlap) refuses the statement if another holding row of an asset
 * overlaps it; the caller names the conflicts (conflictsWith) after the rollback.
 */
export async function insertBooking(
  tx: EntityManager,
  booking: NewBookingRow,
  assetIds: string[],
): Promise<void> {
  await tx.query(
    `INSERT INTO register.bookings (id, workspace_id, person_id, status, starts_at, ends_at, notes,
                                    no_show_at, created_by, confirmed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $4 = 'confirmed' THEN now() END)`,
    [
      booking.id,
      booking.workspace_id,
      booking.person_id,
      booking.status,
      booking.starts_at,
      booking.ends_at,
      booking.notes,
      booking.no_show_at,
      booking.created_by,
    ],
  );
  await tx.query(
    `INSERT INTO register.booking_assets (booking_id, asset_id, workspace_id, during, holds)
     SELECT $1, asset_id, $2, tstzrange($3, $4), true FROM unnest($5::text[]) AS asset_id`,
    [booking.id, booking.workspace_id, booking.starts_at, booking.ends_at, assetIds],
  );
}

/** True for the error Postgres raises when the exclusion constraint refuses a row. */
export function isBookingOverlap(error: unknown): boolean {
  const driver = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driver?.code === '23P01' && driver.constraint === 'booking_assets_no_overlap';
}

/**
 * The holding bookings of `assetIds` that overlap [startsAt, endsAt), by asset and start;
 * `except` leaves out the booking being moved.
 */
export function conflictsWith(
  db: EntityManager,
  workspaceId: string,
  assetIds: string[],
  startsAt: Date,
  endsAt: Date,
  except: string | null = null,
): Promise<ConflictRow[]> {
  return queryRows<ConflictRow>(
    db,
    `SELECT ba.booking_id, ba.asset_id, coalesce(a.name, ba.asset_id) AS asset_name,
            b.starts_at, b.ends_at
       FROM register.booking_assets ba
       JOIN register.bookings b ON b.id = ba.booking_id
       LEFT JOIN register.assets a ON a.id = ba.asset_id
      WHERE ba.workspace_id = $1 AND ba.asset_id = ANY($2::text[]) AND ba.holds
        AND ba.during && tstzrange($3, $4) AND ($5::text IS NULL OR ba.booking_id <> $5)
      ORDER BY ba.asset_id, b.starts_at`,
    [workspaceId, assetIds, startsAt, endsAt, except],
  );
}

export async function findBookingRow(
  db: EntityManager,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<BookingRow> {
  if (id.length > 64 || id.includes('\u0000')) throw bookingNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.bookings WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<BookingRow>(
    db,
    `SELECT ${BOOKING_COLUMNS}
       FROM register.bookings b JOIN register.people p ON p.id = b.person_id
      WHERE b.id = $1 AND b.workspace_id = $2`,
    [id, workspaceId],
  );
  if (!row) throw bookingNotFound(id);
  return row;
}

export function bookingNotFound(id: string): DomainError {
  return new DomainError('not_found', `Booking ${id} not found`);
}

export type { BookingFilter };

/** A page of the filtered bookings, by start then id, and how many match. */
export async function bookingPage(
  db: Queryable,
  filter: BookingFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: BookingRow[]; total: number }> {
  const { count, rows: rowsSql, params } = bookingPageSql(filter, page, pageSize);
  const [counted] = await queryRows<{ total: number }>(db, count, params);
  const rows = await queryRows<BookingRow>(db, rowsSql, params);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * Ends the booking's hold on its assets and records why: its range is free again in the same
 * commit. Returns nothing; the caller reads the booking again.
 */
export async function cancelBooking(
  tx: EntityManager,
  id: string,
  reason: BookingCancelReason,
  note: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE register.bookings
        SET status = 'cancelled', cancel_reason = $2, cancel_note = $3,
            cancelled_at = now(), updated_at = now()
      WHERE id = $1`,
    [id, reason, note],
  );
  await tx.query(`UPDATE register.booking_assets SET holds = false WHERE booking_id = $1`, [id]);
}

/** A requested booking is confirmed: its no-show date stays as armed. */
export async function markConfirmed(tx: EntityManager, id: string): Promise<void> {
  await tx.query(
    `UPDATE register.bookings SET status = 'confirmed', confirmed_at = now(), updated_at = now()
      WHERE id = $1`,
    [id],
  );
}

export interface BookingMove {
  id: string;
  workspaceId: string;
  startsAt: Date;
  endsAt: Date;
  noShowAt: Date | null;
  notes: string | null;
  /** The assets it holds after the move, sorted. */
  assetIds: string[];
}

/**
 * Moves a booking not yet handed out: its row, and its assets' rows (removed ones deleted,
 * kept ones moved, new ones inserted, all holding the new range). The exclusion constraint
 * refuses the statement if the new range meets another holding booking of one of them.
 */
export async function moveBooking(tx: EntityManager, move: BookingMove): Promise<void> {
  await tx.query(
    `UPDATE register.bookings
        SET starts_at = $2, ends_at = $3, no_show_at = $4, notes = $5, updated_at = now()
      WHERE id = $1`,
    [move.id, move.startsAt, move.endsAt, move.noShowAt, move.notes],
  );
  await tx.query(
    `DELETE FROM register.booking_assets WHERE booking_id = $1 AND asset_id <> ALL($2::text[])`,
    [move.id, move.assetIds],
  );
  await tx.query(
    `INSERT INTO register.booking_assets (booking_id, asset_id, workspace_id, during, holds)
     SELECT $1, asset_id, $2, tstzrange($3, $4), true FROM unnest($5::text[]) AS asset_id
     ON CONFLICT ON CONSTRAINT booking_assets_pkey DO UPDATE SET during = EXCLUDED.during`,
    [move.id, move.workspaceId, move.startsAt, move.endsAt, move.assetIds],
  );
}

/**
 * A handed-out booking's end moves (kept longer, or due back sooner): its row, and the range
 * its assets hold, from where it starts holding them now. An overdue booking given a later end
 * is checked out again.
 */
export async function moveEnd(
  tx: EntityManager,
  id: string,
  endsAt: Date,
  notes: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE register.bookings
        SET ends_at = $2, notes = $3, updated_at = now(),
            status = CASE WHEN status = 'overdue' THEN 'checked_out' ELSE status END
      WHERE id = $1`,
    [id, endsAt, notes],
  );
  await tx.query(
    `UPDATE register.booking_assets SET during = tstzrange(lower(during), $2)
      WHERE booking_id = $1 AND holds`,
    [id, endsAt],
  );
}

export async function updateNotes(
  tx: EntityManager,
  id: string,
  notes: string | null,
): Promise<void> {
  await tx.query(`UPDATE register.bookings SET notes = $2, updated_at = now() WHERE id = $1`, [
    id,
    notes,
  ]);
}

/** How the activity feed names a booking: its assets and who they are for. */
export function bookingName(booking: Booking): string {
  return `${booking.assets.map((asset) => asset.name).join(', ')} for ${booking.person.name}`;
}

export function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    status: row.status,
    person: { id: row.person_id, name: row.person_name },
    assets: row.assets,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    notes: row.notes,
    cancellation:
      row.cancel_reason && row.cancelled_at
        ? { reason: row.cancel_reason, note: row.cancel_note, at: row.cancelled_at.toISOString() }
        : null,
    checked_out_at: row.checked_out_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Handing out and taking back

/**
 * Early check-out: the booking holds its assets from `from` (now) instead of its start. The
 * exclusion constraint refuses it if another booking holds one of them in between.
 */
export async function holdFrom(tx: EntityManager, bookingId: string, from: Date): Promise<void> {
  await tx.query(
    `UPDATE register.booking_assets SET during = tstzrange($2, upper(during))
      WHERE booking_id = $1`,
    [bookingId, from],
  );
}

export async function markCheckedOut(tx: EntityManager, bookingId: string): Promise<void> {
  await tx.query(
    `UPDATE register.bookings
        SET status = 'checked_out', checked_out_at = now(), updated_at = now()
      WHERE id = $1`,
    [bookingId],
  );
}

/** The assets came back; with `complete`, the booking is completed and holds nothing more. */
export async function markReturned(
  tx: EntityManager,
  bookingId: string,
  assetIds: string[],
  complete: boolean,
): Promise<void> {
  await tx.query(
    `UPDATE register.booking_assets SET returned_at = now()
      WHERE booking_id = $1 AND asset_id = ANY($2::text[]) AND returned_at IS NULL`,
    [bookingId, assetIds],
  );
  if (complete) {
    await tx.query(`UPDATE register.booking_assets SET holds = false WHERE booking_id = $1`, [
      bookingId,
    ]);
    await tx.query(
      `UPDATE register.bookings
          SET status = 'completed', completed_at = now(), updated_at = now()
        WHERE id = $1`,
      [bookingId],
    );
  } else {
    await tx.query(`UPDATE register.bookings SET updated_at = now() WHERE id = $1`, [bookingId]);
  }
}

type NoticeBookingRow = Pick<
  BookingEntity,
  'id' | 'status' | 'starts_at' | 'ends_at' | 'no_show_at'
>;

/**
 * The booking's row locked for a due-date handler: SKIP LOCKED (a write holding it answers
 * `busy`, ADR 0020); undefined when locked or gone.
 */
export async function lockBookingForNotice(
  tx: EntityManager,
  workspaceId: string,
  id: string,
): Promise<NoticeBookingRow | 'busy' | undefined> {
  const [row] = await queryRows<NoticeBookingRow>(
    tx,
    `SELECT id, status, starts_at, ends_at, no_show_at FROM register.bookings
      WHERE id = $1 AND workspace_id = $2 FOR UPDATE SKIP LOCKED`,
    [id, workspaceId],
  );
  if (row) return row;
  const [exists] = await queryRows<{ id: string }>(
    tx,
    `SELECT id FROM register.bookings WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId],
  );
  return exists ? 'busy' : undefined;
}

/** A due date passed: `overdue` (still holding) or `no_show` (its assets freed). */
export async function markLapsed(
  tx: EntityManager,
  bookingId: string,
  status: 'overdue' | 'no_show',
): Promise<void> {
  await tx.query(`UPDATE register.bookings SET status = $2, updated_at = now() WHERE id = $1`, [
    bookingId,
    status,
  ]);
  if (status === 'no_show') {
    await tx.query(`UPDATE register.booking_assets SET holds = false WHERE booking_id = $1`, [
      bookingId,
    ]);
  }
}

// ---------------------------------------------------------------------------------------------
// Availability

export interface BusyRow {
  from: Date;
  to: Date | null;
  kind: 'booking' | 'check_out';
  booking_id: string | null;
  status: BookingStatus | null;
  person_id: string;
  person_name: string;
}

/**
 * When the asset is taken within [from, to): its holding bookings, and its current check-out
 * unless a booking of its holder covers it (a booking's check-out is that booking's stretch).
 * Each clipped to the range; by start.
 */
export function busyIntervals(
  db: Queryable,
  workspaceId: string,
  assetId: string,
  from: Date,
  to: Date,
): Promise<BusyRow[]> {
  return queryRows<BusyRow>(db, BUSY_INTERVALS, [workspaceId, assetId, from, to]);
}
