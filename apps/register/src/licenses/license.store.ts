import { DomainError, type HeldSeat, type License, type LicenseSeat } from '@custodian/contracts';
import { heldSeatsSql, type HeldSeatJson } from '@custodian/register-sql';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { LicenseEntity, LicenseSeatEntity } from './license.entity';

/* register.licenses and register.license_seats: their SQL, row types and views. */

export type LicenseRow = Omit<LicenseEntity, 'product_key'> & {
  seats_used: number;
  has_product_key: boolean;
};

const LICENSE_COLUMNS = `l.id, l.workspace_id, l.name, l.vendor, l.seats,
  to_char(l.expires_on, 'YYYY-MM-DD') AS expires_on, l.cost::text AS cost, l.notes,
  l.product_key IS NOT NULL AS has_product_key, l.deleted_at, l.created_at, l.updated_at,
  (SELECT count(*)::int FROM register.license_seats s WHERE s.license_id = l.id) AS seats_used`;

export function licenseNotFound(id: string): DomainError {
  return new DomainError('not_found', `Licence ${id} not found`);
}

/**
 * The licence, out of the bin (or in it, with `binned`); `forUpdate` locks its row first: every
 * seat assigned waits for it, which is what keeps the seat count exact.
 */
export async function findLicenseRow(
  db: EntityManager,
  workspaceId: string,
  id: string,
  { forUpdate = false, binned = false }: { forUpdate?: boolean; binned?: boolean } = {},
): Promise<LicenseRow> {
  if (id.length > 64 || id.includes('\u0000')) throw licenseNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.licenses WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<LicenseRow>(
    db,
    `SELECT ${LICENSE_COLUMNS} FROM register.licenses l
      WHERE l.id = $1 AND l.workspace_id = $2
        AND l.deleted_at IS ${binned ? 'NOT NULL' : 'NULL'}`,
    [id, workspaceId],
  );
  if (!row) throw licenseNotFound(id);
  return row;
}

export function toLicense(row: LicenseRow): License {
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    seats: row.seats,
    seats_used: row.seats_used,
    expires_on: row.expires_on,
    cost: row.cost,
    notes: row.notes,
    has_product_key: row.has_product_key,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface LicenseFilter {
  workspaceId: string;
  search?: string;
  expiresBefore?: string;
}

/** A page of the workspace's licences (out of the bin), by name then id, and how many match. */
export async function licensePage(
  db: Queryable,
  filter: LicenseFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: LicenseRow[]; total: number }> {
  const parameters: unknown[] = [filter.workspaceId];
  const clauses = ['l.workspace_id = $1', 'l.deleted_at IS NULL'];
  if (filter.search) {
    parameters.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    clauses.push(
      `(l.name ILIKE $${parameters.length} OR coalesce(l.vendor, '') ILIKE $${parameters.length})`,
    );
  }
  if (filter.expiresBefore) {
    parameters.push(filter.expiresBefore);
    clauses.push(`l.expires_on <= $${parameters.length}::date`);
  }
  const where = clauses.join(' AND ');
  const [counted] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.licenses l WHERE ${where}`,
    parameters,
  );
  const rows = await queryRows<LicenseRow>(
    db,
    `SELECT ${LICENSE_COLUMNS} FROM register.licenses l WHERE ${where}
      ORDER BY l.name, l.id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    parameters,
  );
  return { rows, total: counted?.total ?? 0 };
}

export type LicenseWrite = Partial<
  Pick<LicenseEntity, 'name' | 'vendor' | 'seats' | 'expires_on' | 'cost' | 'notes' | 'product_key'>
>;

export async function insertLicense(
  tx: EntityManager,
  id: string,
  workspaceId: string,
  values: LicenseWrite & { name: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO register.licenses
            (id, workspace_id, name, vendor, seats, expires_on, cost, notes, product_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      workspaceId,
      values.name,
      values.vendor ?? null,
      values.seats ?? null,
      values.expires_on ?? null,
      values.cost ?? null,
      values.notes ?? null,
      values.product_key ?? null,
    ],
  );
}

/** Sets the columns given (names from LicenseWrite only: never a client's key). */
export async function updateLicense(
  tx: EntityManager,
  id: string,
  values: LicenseWrite,
): Promise<void> {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  await tx.query(
    `UPDATE register.licenses SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
    [id, ...entries.map(([, value]) => value)],
  );
}

export async function setLicenseBinned(
  tx: EntityManager,
  id: string,
  binned: boolean,
): Promise<void> {
  await tx.query(
    `UPDATE register.licenses SET deleted_at = ${binned ? 'now()' : 'NULL'}, updated_at = now()
      WHERE id = $1`,
    [id],
  );
}

/** The stored (encrypted) product key, read for a reveal. */
export async function storedProductKey(db: EntityManager, id: string): Promise<string | null> {
  const [row] = await queryRows<Pick<LicenseEntity, 'product_key'>>(
    db,
    `SELECT product_key FROM register.licenses WHERE id = $1`,
    [id],
  );
  return row?.product_key ?? null;
}

// ---------------------------------------------------------------------------------------------
// Seats

type SeatRow = Pick<LicenseSeatEntity, 'id' | 'license_id' | 'person_id' | 'asset_id'> & {
  assigned_at: Date;
  license_name: string;
  person_name: string | null;
  asset_name: string | null;
  asset_tag: string | null;
};

const SEAT_COLUMNS = `s.id, s.license_id, s.person_id, s.asset_id, s.assigned_at,
  l.name AS license_name, p.full_name AS person_name,
  coalesce(a.name, d.name) AS asset_name, coalesce(a.asset_tag, d.asset_tag) AS asset_tag`;
const SEAT_JOINS = `FROM register.license_seats s
  JOIN register.licenses l ON l.id = s.license_id
  LEFT JOIN register.people p ON p.id = s.person_id
  LEFT JOIN register.assets a ON a.id = s.asset_id
  LEFT JOIN register.deleted_assets d ON d.id = s.asset_id`;

export function toSeat(row: SeatRow): LicenseSeat {
  return {
    id: row.id,
    license: { id: row.license_id, name: row.license_name },
    person: row.person_id ? { id: row.person_id, name: row.person_name ?? '' } : null,
    asset: row.asset_id
      ? { id: row.asset_id, name: row.asset_name ?? row.asset_id, asset_tag: row.asset_tag ?? '' }
      : null,
    assigned_at: row.assigned_at.toISOString(),
  };
}

/** The licence's seats, oldest first. */
export function seatsOf(db: Queryable, licenseId: string): Promise<SeatRow[]> {
  return queryRows<SeatRow>(
    db,
    `SELECT ${SEAT_COLUMNS} ${SEAT_JOINS} WHERE s.license_id = $1 ORDER BY s.assigned_at, s.id`,
    [licenseId],
  );
}

export async function findSeatRow(
  db: EntityManager,
  licenseId: string,
  seatId: string,
): Promise<SeatRow> {
  const [row] =
    seatId.length <= 64 && !seatId.includes('\u0000')
      ? await queryRows<SeatRow>(
          db,
          `SELECT ${SEAT_COLUMNS} ${SEAT_JOINS} WHERE s.id = $1 AND s.license_id = $2`,
          [seatId, licenseId],
        )
      : [];
  if (!row) throw new DomainError('not_found', `Seat ${seatId} not found on licence ${licenseId}`);
  return row;
}

/** The seat held by the person or the asset, if any. */
export async function seatHeldBy(
  db: EntityManager,
  licenseId: string,
  holder: { personId?: string; assetId?: string },
): Promise<string | undefined> {
  const [row] = await queryRows<{ id: string }>(
    db,
    `SELECT id FROM register.license_seats
      WHERE license_id = $1 AND (person_id = $2 OR asset_id = $3)`,
    [licenseId, holder.personId ?? null, holder.assetId ?? null],
  );
  return row?.id;
}

export async function insertSeat(
  tx: EntityManager,
  seat: Pick<LicenseSeatEntity, 'id' | 'workspace_id' | 'license_id' | 'person_id' | 'asset_id'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO register.license_seats (id, workspace_id, license_id, person_id, asset_id)
     VALUES ($1, $2, $3, $4, $5)`,
    [seat.id, seat.workspace_id, seat.license_id, seat.person_id, seat.asset_id],
  );
}

export async function deleteSeat(tx: EntityManager, seatId: string): Promise<void> {
  await tx.query(`DELETE FROM register.license_seats WHERE id = $1`, [seatId]);
}

/** A holder's seats as heldSeatsSql reads them, with ISO timestamps. */
export function toHeldSeats(rows: HeldSeatJson[]): HeldSeat[] {
  return rows.map((seat) => ({
    id: seat.id,
    license: seat.license,
    assigned_at: new Date(seat.assigned_at).toISOString(),
  }));
}

/** The seats a person holds (licences in the bin left out), oldest first. */
export async function personSeats(
  db: Queryable,
  workspaceId: string,
  personId: string,
): Promise<HeldSeat[]> {
  const [row] = await queryRows<{ seats: HeldSeatJson[] }>(
    db,
    `SELECT ${heldSeatsSql('person_id', 'p')} AS seats FROM register.people p
      WHERE p.id = $1 AND p.workspace_id = $2`,
    [personId, workspaceId],
  );
  return toHeldSeats(row?.seats ?? []);
}
