/*
 * The booking reads the API serves over a range, whole statements: the register's booking
 * store (apps/register/src/bookings/booking.store.ts, which owns every other statement on
 * register.bookings and register.booking_assets) runs them, and the read bench's bare handler
 * serves the very same SQL from here, as it does the asset reads (asset-reads.ts).
 */

/**
 * A booking's row with its person's name and its assets as they are now (or were, if binned),
 * over `register.bookings b JOIN register.people p` (BookingRow in the booking store).
 */
export const BOOKING_COLUMNS = `b.*, p.full_name AS person_name,
  (SELECT coalesce(json_agg(json_build_object(
            'id', ba.asset_id,
            'name', coalesce(a.name, d.name, ba.asset_id),
            'asset_tag', coalesce(a.asset_tag, d.asset_tag, ''),
            'returned_at', to_char(ba.returned_at AT TIME ZONE 'UTC',
                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY ba.asset_id), '[]')
     FROM register.booking_assets ba
     LEFT JOIN register.assets a ON a.id = ba.asset_id
     LEFT JOIN register.deleted_assets d ON d.id = ba.asset_id
    WHERE ba.booking_id = b.id) AS assets`;

/** GET /bookings's filters; `status` as the contract's BookingStatus. */
export interface BookingFilter {
  workspaceId: string;
  from?: Date;
  to?: Date;
  assetId?: string;
  personId?: string;
  status?: string;
}

/** The two statements of a page of bookings: the count of the filtered ones, and the page. */
export interface BookingPageStatements {
  count: string;
  rows: string;
  params: unknown[];
}

/** The filter as SQL over `register.bookings b`, with its parameters from $1. */
function where(filter: BookingFilter): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [filter.workspaceId];
  const clauses = ['b.workspace_id = $1'];
  const add = (clause: (n: number) => string, value: unknown) => {
    parameters.push(value);
    clauses.push(clause(parameters.length));
  };
  if (filter.from) add((n) => `b.ends_at > $${n}`, filter.from);
  if (filter.to) add((n) => `b.starts_at < $${n}`, filter.to);
  if (filter.from && filter.to && filter.from < filter.to) {
    // The same bookings as the two clauses above (ends_at > starts_at always), said as the
    // GiST index bookings_workspace_during reads them: the btree on starts_at bounds one side
    // only, so a week's page would walk every booking that started before it.
    const [fromAt, toAt] = [parameters.length - 1, parameters.length];
    clauses.push(`tstzrange(b.starts_at, b.ends_at) && tstzrange($${fromAt}, $${toAt})`);
  }
  if (filter.personId) add((n) => `b.person_id = $${n}`, filter.personId);
  if (filter.status) add((n) => `b.status = $${n}`, filter.status);
  if (filter.assetId) {
    add(
      (n) =>
        `EXISTS (SELECT 1 FROM register.booking_assets ba
                  WHERE ba.booking_id = b.id AND ba.workspace_id = $1 AND ba.asset_id = $${n})`,
      filter.assetId,
    );
  }
  return { sql: clauses.join(' AND '), parameters };
}

/**
 * A page of the filtered bookings, by start then id, and the statement that counts them:
 * GET /bookings (BookingsService.list) and the bench's bare handler. `page` from 1.
 */
export function bookingPageSql(
  filter: BookingFilter,
  page: number,
  pageSize: number,
): BookingPageStatements {
  const { sql, parameters } = where(filter);
  return {
    count: `SELECT count(*)::int AS total FROM register.bookings b WHERE ${sql}`,
    rows: `SELECT ${BOOKING_COLUMNS}
       FROM register.bookings b JOIN register.people p ON p.id = b.person_id
      WHERE ${sql}
      ORDER BY b.starts_at, b.id
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params: parameters,
  };
}

/** The asset an availability is of ($1 the id, $2 the workspace): its id, name and tag. */
export const AVAILABILITY_ASSET = `SELECT id, name, asset_tag FROM register.assets WHERE id = $1 AND workspace_id = $2`;

/**
 * When the asset is taken within [from, to) ($1 the workspace, $2 the asset, $3 from, $4 to):
 * its holding bookings, and its current check-out unless a booking of its holder covers it (a
 * booking's check-out is that booking's stretch). Each clipped to the range; by start.
 * GET /assets/{id}/availability (BookingsService.availability) and the bench's bare handler.
 */
export const BUSY_INTERVALS = `SELECT greatest(lower(ba.during), $3) AS "from", least(upper(ba.during), $4) AS "to",
            'booking' AS kind, b.id AS booking_id, b.status, b.person_id,
            p.full_name AS person_name
       FROM register.booking_assets ba
       JOIN register.bookings b ON b.id = ba.booking_id
       JOIN register.people p ON p.id = b.person_id
      WHERE ba.workspace_id = $1 AND ba.asset_id = $2 AND ba.holds
        AND ba.during && tstzrange($3, $4)
     UNION ALL
     SELECT greatest(a.assigned_at, $3), CASE WHEN a.custody_due_at IS NULL THEN NULL
                                           ELSE least(a.custody_due_at, $4) END,
            'check_out', NULL, NULL, a.assigned_to_id, p.full_name
       FROM register.assets a JOIN register.people p ON p.id = a.assigned_to_id
      WHERE a.workspace_id = $1 AND a.id = $2
        AND (a.custody_due_at IS NULL OR a.custody_due_at > $3) AND a.assigned_at < $4
        AND NOT EXISTS (
          SELECT 1 FROM register.booking_assets ba JOIN register.bookings b ON b.id = ba.booking_id
           WHERE ba.workspace_id = a.workspace_id AND ba.asset_id = a.id AND ba.returned_at IS NULL
             AND b.status IN ('checked_out', 'overdue') AND b.person_id = a.assigned_to_id)
     ORDER BY 1, 4`;
