import { DomainError, type AssetRequest } from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { AssetRequestEntity } from './asset-request.entity';

/** Every SQL statement on register.asset_requests. */

export type AssetRequestRow = Pick<
  AssetRequestEntity,
  | 'id'
  | 'workspace_id'
  | 'status'
  | 'person_id'
  | 'asset_id'
  | 'category_id'
  | 'starts_at'
  | 'ends_at'
  | 'note'
  | 'created_by'
  | 'decision_note'
  | 'decided_at'
  | 'given_asset_id'
  | 'fulfilled_by'
  | 'booking_id'
  | 'created_at'
  | 'updated_at'
> & {
  person_name: string;
  asset_name: string | null;
  asset_tag: string | null;
  category_name: string | null;
  given_name: string | null;
  given_tag: string | null;
};

// An asset in the bin is still named: its row is in register.deleted_assets.
const COLUMNS = `r.id, r.workspace_id, r.status, r.person_id, r.asset_id, r.category_id,
  r.starts_at, r.ends_at, r.note, r.created_by, r.decision_note, r.decided_at,
  r.given_asset_id, r.fulfilled_by, r.booking_id, r.created_at, r.updated_at,
  p.full_name AS person_name,
  coalesce(a.name, da.name) AS asset_name, coalesce(a.asset_tag, da.asset_tag) AS asset_tag,
  c.name AS category_name,
  coalesce(g.name, dg.name) AS given_name, coalesce(g.asset_tag, dg.asset_tag) AS given_tag`;
const JOINS = `FROM register.asset_requests r
  JOIN register.people p ON p.id = r.person_id
  LEFT JOIN register.assets a ON a.id = r.asset_id
  LEFT JOIN register.deleted_assets da ON da.id = r.asset_id
  LEFT JOIN register.categories c ON c.id = r.category_id
  LEFT JOIN register.assets g ON g.id = r.given_asset_id
  LEFT JOIN register.deleted_assets dg ON dg.id = r.given_asset_id`;

export function requestNotFound(id: string): DomainError {
  return new DomainError('not_found', `Request ${id} not found`);
}

/**
 * The request, this workspace's; `forUpdate` locks its row first (a decision waits for
 * another on the same request, then sees it decided). `createdBy`: only one this caller made
 * (a member sees no other's: a 404, as for a record of another workspace).
 */
export async function findRequestRow(
  db: EntityManager,
  workspaceId: string,
  id: string,
  { forUpdate = false, createdBy }: { forUpdate?: boolean; createdBy?: string } = {},
): Promise<AssetRequestRow> {
  if (id.length > 64 || id.includes('\u0000')) throw requestNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.asset_requests WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<AssetRequestRow>(
    db,
    `SELECT ${COLUMNS} ${JOINS} WHERE r.id = $1 AND r.workspace_id = $2`,
    [id, workspaceId],
  );
  if (!row || (createdBy !== undefined && row.created_by !== createdBy)) {
    throw requestNotFound(id);
  }
  return row;
}

export function toAssetRequest(row: AssetRequestRow): AssetRequest {
  const assetRef = (id: string | null, name: string | null, tag: string | null) =>
    id ? { id, name: name ?? id, asset_tag: tag ?? '' } : null;
  return {
    id: row.id,
    status: row.status,
    person: { id: row.person_id, name: row.person_name },
    asset: assetRef(row.asset_id, row.asset_name, row.asset_tag),
    category: row.category_id ? { id: row.category_id, name: row.category_name ?? '' } : null,
    starts_at: row.starts_at?.toISOString() ?? null,
    ends_at: row.ends_at?.toISOString() ?? null,
    note: row.note,
    decision:
      row.status === 'pending' || !row.decided_at
        ? null
        : {
            note: row.decision_note,
            at: row.decided_at.toISOString(),
            asset: assetRef(row.given_asset_id, row.given_name, row.given_tag),
            fulfilled_by: row.fulfilled_by,
            booking_id: row.booking_id,
          },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type NewRequestRow = Pick<
  AssetRequestEntity,
  | 'id'
  | 'workspace_id'
  | 'person_id'
  | 'asset_id'
  | 'category_id'
  | 'starts_at'
  | 'ends_at'
  | 'note'
  | 'created_by'
>;

export async function insertRequest(tx: EntityManager, row: NewRequestRow): Promise<void> {
  await tx.query(
    `INSERT INTO register.asset_requests
       (id, workspace_id, person_id, asset_id, category_id, starts_at, ends_at, note, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.workspace_id,
      row.person_id,
      row.asset_id,
      row.category_id,
      row.starts_at,
      row.ends_at,
      row.note,
      row.created_by,
    ],
  );
}

export type Decision = Pick<
  AssetRequestEntity,
  'status' | 'decided_by' | 'decision_note' | 'given_asset_id' | 'fulfilled_by' | 'booking_id'
>;

/** Records the decision on a pending request (its row locked by the caller). */
export async function decideRequest(tx: EntityManager, id: string, d: Decision): Promise<void> {
  await tx.query(
    `UPDATE register.asset_requests
        SET status = $2, decided_by = $3, decision_note = $4, decided_at = now(),
            given_asset_id = $5, fulfilled_by = $6, booking_id = $7, updated_at = now()
      WHERE id = $1`,
    [id, d.status, d.decided_by, d.decision_note, d.given_asset_id, d.fulfilled_by, d.booking_id],
  );
}

/** The booking an approval makes is linked after it exists (the foreign key). */
export async function linkBooking(tx: EntityManager, id: string, bookingId: string): Promise<void> {
  await tx.query(`UPDATE register.asset_requests SET booking_id = $2 WHERE id = $1`, [
    id,
    bookingId,
  ]);
}

export interface RequestFilter {
  workspaceId: string;
  status?: string;
  personId?: string;
  assetId?: string;
  /** Only those this caller made (a member's own). */
  createdBy?: string;
}

/** A page of requests, newest first; the total counts every match. */
export async function requestPage(
  db: Queryable,
  filter: RequestFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: AssetRequestRow[]; total: number }> {
  const parameters: unknown[] = [filter.workspaceId];
  const clauses = ['r.workspace_id = $1'];
  const add = (clause: (n: number) => string, value: unknown) => {
    parameters.push(value);
    clauses.push(clause(parameters.length));
  };
  if (filter.status) add((n) => `r.status = $${n}`, filter.status);
  if (filter.personId) add((n) => `r.person_id = $${n}`, filter.personId);
  if (filter.assetId)
    add((n) => `(r.asset_id = $${n} OR r.given_asset_id = $${n})`, filter.assetId);
  if (filter.createdBy) add((n) => `r.created_by = $${n}`, filter.createdBy);
  const where = clauses.join(' AND ');
  const [counted] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.asset_requests r WHERE ${where}`,
    parameters,
  );
  const rows = await queryRows<AssetRequestRow>(
    db,
    `SELECT ${COLUMNS} ${JOINS} WHERE ${where}
      ORDER BY r.created_at DESC, r.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    parameters,
  );
  return { rows, total: counted?.total ?? 0 };
}

/** The category of that name (any case), or none: a request never creates one. */
export async function categoryNamed(
  db: EntityManager,
  workspaceId: string,
  name: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await queryRows<{ id: string; name: string }>(
    db,
    `SELECT id, name FROM register.categories WHERE workspace_id = $1 AND lower(name) = lower($2)`,
    [workspaceId, name.trim()],
  );
  return row;
}

/** What an approval needs to know of the asset given (row locked: no hand-out races it). */
export interface GivenAssetRow {
  id: string;
  name: string;
  status: string;
  category_id: string | null;
  assigned_to_id: string | null;
  holder_name: string | null;
}

export async function lockGivenAsset(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
): Promise<GivenAssetRow | undefined> {
  if (assetId.length > 64 || assetId.includes('\u0000')) return undefined;
  const [row] = await queryRows<GivenAssetRow>(
    tx,
    `SELECT a.id, a.name, a.status, a.category_id, a.assigned_to_id, p.full_name AS holder_name
       FROM register.assets a LEFT JOIN register.people p ON p.id = a.assigned_to_id
      WHERE a.id = $1 AND a.workspace_id = $2 FOR UPDATE OF a`,
    [assetId, workspaceId],
  );
  return row;
}
