import {
  DomainError,
  type AssetStatus,
  type Maintenance,
  type MaintenanceStatus,
  type MaintenanceType,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import type { MaintenanceEntity } from './maintenance.entity';

/* register.maintenance: its SQL, row types and view. */

export type MaintenanceRow = Omit<MaintenanceEntity, 'created_by'> & {
  asset_name: string | null;
  asset_tag: string | null;
};

/** The asset read from the register or, binned, from the bin. */
const COLUMNS = `m.id, m.workspace_id, m.asset_id, m.title, m.type, m.notes,
  to_char(m.scheduled_for, 'YYYY-MM-DD') AS scheduled_for, m.cost::text AS cost, m.status,
  m.asset_status_before, m.resolution_notes, m.created_at, m.updated_at, m.resolved_at,
  m.reminder_id,
  coalesce(a.name, d.name) AS asset_name, coalesce(a.asset_tag, d.asset_tag) AS asset_tag`;
const JOINS = `FROM register.maintenance m
  LEFT JOIN register.assets a ON a.id = m.asset_id
  LEFT JOIN register.deleted_assets d ON d.id = m.asset_id`;

export function maintenanceNotFound(id: string): DomainError {
  return new DomainError('not_found', `Maintenance record ${id} not found`);
}

/** The record of the workspace; `forUpdate` locks its row first. */
export async function findMaintenanceRow(
  db: EntityManager,
  workspaceId: string,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<MaintenanceRow> {
  if (id.length > 64 || id.includes('\u0000')) throw maintenanceNotFound(id);
  if (forUpdate) {
    await db.query(
      `SELECT 1 FROM register.maintenance WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const [row] = await queryRows<MaintenanceRow>(
    db,
    `SELECT ${COLUMNS} ${JOINS} WHERE m.id = $1 AND m.workspace_id = $2`,
    [id, workspaceId],
  );
  if (!row) throw maintenanceNotFound(id);
  return row;
}

export function toMaintenance(row: MaintenanceRow): Maintenance {
  return {
    id: row.id,
    asset: {
      id: row.asset_id,
      name: row.asset_name ?? row.asset_id,
      asset_tag: row.asset_tag ?? '',
    },
    title: row.title,
    type: row.type as MaintenanceType,
    notes: row.notes,
    scheduled_for: row.scheduled_for,
    cost: row.cost,
    status: row.status as MaintenanceStatus,
    asset_status_before: row.asset_status_before as AssetStatus | null,
    resolution_notes: row.resolution_notes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
    reminder_id: row.reminder_id,
  };
}

export interface MaintenanceFilter {
  workspaceId: string;
  status?: MaintenanceStatus;
  assetId?: string;
}

/** A page of the workspace's records, newest first, and how many match. */
export async function maintenancePage(
  db: Queryable,
  filter: MaintenanceFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: MaintenanceRow[]; total: number }> {
  const parameters: unknown[] = [filter.workspaceId];
  const clauses = ['m.workspace_id = $1'];
  if (filter.status) {
    parameters.push(filter.status);
    clauses.push(`m.status = $${parameters.length}`);
  }
  if (filter.assetId) {
    parameters.push(filter.assetId);
    clauses.push(`m.asset_id = $${parameters.length}`);
  }
  const where = clauses.join(' AND ');
  const [counted] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.maintenance m WHERE ${where}`,
    parameters,
  );
  const rows = await queryRows<MaintenanceRow>(
    db,
    `SELECT ${COLUMNS} ${JOINS} WHERE ${where}
      ORDER BY m.created_at DESC, m.id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    parameters,
  );
  return { rows, total: counted?.total ?? 0 };
}

export type MaintenanceWrite = Partial<
  Pick<MaintenanceEntity, 'title' | 'type' | 'notes' | 'scheduled_for' | 'cost'>
>;

export async function insertMaintenance(
  tx: EntityManager,
  values: Pick<
    MaintenanceEntity,
    | 'id'
    | 'workspace_id'
    | 'asset_id'
    | 'title'
    | 'type'
    | 'notes'
    | 'scheduled_for'
    | 'cost'
    | 'asset_status_before'
    | 'created_by'
  >,
): Promise<void> {
  await tx.query(
    `INSERT INTO register.maintenance
            (id, workspace_id, asset_id, title, type, notes, scheduled_for, cost,
             asset_status_before, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      values.id,
      values.workspace_id,
      values.asset_id,
      values.title,
      values.type,
      values.notes,
      values.scheduled_for,
      values.cost,
      values.asset_status_before,
      values.created_by,
    ],
  );
}

/** Sets the columns given (names from MaintenanceWrite only: never a client's key). */
export async function updateMaintenance(
  tx: EntityManager,
  id: string,
  values: MaintenanceWrite,
): Promise<void> {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map(([column], index) => `${column} = $${index + 2}`);
  await tx.query(
    `UPDATE register.maintenance SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
    [id, ...entries.map(([, value]) => value)],
  );
}

export async function resolveMaintenance(
  tx: EntityManager,
  id: string,
  values: { resolution_notes: string | null; cost?: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE register.maintenance
        SET status = 'resolved', resolved_at = now(), updated_at = now(),
            resolution_notes = $2, cost = CASE WHEN $3 THEN $4::numeric ELSE cost END
      WHERE id = $1`,
    [id, values.resolution_notes, values.cost !== undefined, values.cost ?? null],
  );
}

/**
 * The status the asset's open records hold it in `maintenance` from (the oldest's), other than
 * `exceptId`; undefined when none does.
 */
export async function heldStatusOf(
  db: EntityManager,
  workspaceId: string,
  assetId: string,
  exceptId: string | null,
): Promise<string | undefined> {
  const [row] = await queryRows<{ asset_status_before: string }>(
    db,
    `SELECT asset_status_before FROM register.maintenance
      WHERE workspace_id = $1 AND asset_id = $2 AND status = 'open'
        AND asset_status_before IS NOT NULL AND id IS DISTINCT FROM $3
      ORDER BY created_at, id LIMIT 1`,
    [workspaceId, assetId, exceptId],
  );
  return row?.asset_status_before;
}

/** The asset's status, locked; undefined when it is not in the register (binned or never). */
export async function lockAssetStatus(
  tx: EntityManager,
  workspaceId: string,
  assetId: string,
): Promise<{ id: string; name: string; status: AssetStatus } | undefined> {
  if (assetId.length > 64 || assetId.includes('\u0000')) return undefined;
  const [row] = await queryRows<{ id: string; name: string; status: AssetStatus }>(
    tx,
    `SELECT id, name, status FROM register.assets
      WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
    [assetId, workspaceId],
  );
  return row;
}

/** Whether the asset is in the bin (its row moved to register.deleted_assets). */
export async function assetBinned(
  db: EntityManager,
  workspaceId: string,
  assetId: string,
): Promise<{ name: string } | undefined> {
  const [row] = await queryRows<{ name: string }>(
    db,
    `SELECT name FROM register.deleted_assets WHERE id = $1 AND workspace_id = $2`,
    [assetId, workspaceId],
  );
  return row;
}
