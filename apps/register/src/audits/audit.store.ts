import {
  DomainError,
  type Audit,
  type AuditItem,
  type AuditItemState,
  type AuditScan,
  type AuditScanOutcome,
  type AuditStatus,
} from '@custodian/contracts';
import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import { SUBTREE_CTE } from '../locations/location-tree';
import type { AuditEntity, AuditItemEntity } from './audit.entity';

/** Every SQL statement on register.audits and register.audit_items. */

export type AuditRow = Omit<AuditEntity, 'created_by' | 'completed_by'> & {
  created_by: Record<string, unknown>;
  completed_by: Record<string, unknown> | null;
};

const AUDIT_COLUMNS = `a.id, a.workspace_id, a.name, a.status, a.location_id, a.location_name,
  a.include_children, a.category_id, a.category_name, a.asset_ids, a.expected, a.found,
  a.misplaced, a.unexpected, a.progress_done, a.progress_total, a.due_at, a.move_found,
  a.mark_missing_lost, a.created_by, a.completed_by, a.created_at, a.updated_at, a.started_at,
  a.completed_at, a.cancelled_at`;

export function auditNotFound(id: string): DomainError {
  return new DomainError('not_found', `Audit ${id} not found`);
}

/** The audit, optionally locked; 404 when it is not the workspace's. */
export async function findAuditRow(
  db: Queryable,
  workspaceId: string,
  id: string,
  lock: '' | 'FOR UPDATE' | 'FOR KEY SHARE' = '',
): Promise<AuditRow> {
  if (id.length > 64 || id.includes('\u0000')) throw auditNotFound(id);
  const [row] = await queryRows<AuditRow>(
    db,
    `SELECT ${AUDIT_COLUMNS} FROM register.audits a WHERE a.id = $1 AND a.workspace_id = $2
      ${lock ? `${lock} OF a` : ''}`,
    [id, workspaceId],
  );
  if (!row) throw auditNotFound(id);
  return row;
}

export interface NewAudit {
  id: string;
  workspace_id: string;
  name: string;
  location_id: string | null;
  location_name: string | null;
  include_children: boolean;
  category_id: string | null;
  category_name: string | null;
  asset_ids: string[] | null;
  due_at: string | null;
  created_by: object;
}

export async function insertAudit(tx: EntityManager, audit: NewAudit): Promise<void> {
  await tx.query(
    `INSERT INTO register.audits (id, workspace_id, name, location_id, location_name,
       include_children, category_id, category_name, asset_ids, due_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      audit.id,
      audit.workspace_id,
      audit.name,
      audit.location_id,
      audit.location_name,
      audit.include_children,
      audit.category_id,
      audit.category_name,
      audit.asset_ids,
      audit.due_at,
      JSON.stringify(audit.created_by),
    ],
  );
}

export async function auditPage(
  db: Queryable,
  filter: { workspaceId: string; status?: AuditStatus },
  page: number,
  pageSize: number,
): Promise<{ rows: AuditRow[]; total: number }> {
  const params: unknown[] = [filter.workspaceId];
  let where = 'a.workspace_id = $1';
  if (filter.status) {
    params.push(filter.status);
    where += ` AND a.status = $${params.length}`;
  }
  const [count] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.audits a WHERE ${where}`,
    params,
  );
  const rows = await queryRows<AuditRow>(
    db,
    `SELECT ${AUDIT_COLUMNS} FROM register.audits a WHERE ${where}
      ORDER BY a.created_at DESC, a.id DESC
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params,
  );
  return { rows, total: count?.total ?? 0 };
}

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function toAudit(row: AuditRow): Audit {
  const working = row.status === 'starting' || row.status === 'completing';
  return {
    id: row.id,
    name: row.name,
    status: row.status as AuditStatus,
    location:
      row.location_name !== null ? { id: row.location_id ?? '', name: row.location_name } : null,
    include_children: row.include_children,
    category:
      row.category_name !== null ? { id: row.category_id ?? '', name: row.category_name } : null,
    asset_count: row.asset_ids ? row.asset_ids.length : null,
    counts: {
      expected: row.expected,
      found: row.found,
      missing: row.expected - row.found,
      unexpected: row.unexpected,
      misplaced: row.misplaced,
    },
    progress:
      working && row.progress_total !== null
        ? { done: row.progress_done ?? 0, total: row.progress_total }
        : null,
    due_at: iso(row.due_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    completion:
      row.move_found !== null
        ? { move_found: row.move_found, mark_missing_lost: row.mark_missing_lost === true }
        : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

// ---- items -------------------------------------------------------------------------------

export type ItemRow = Pick<
  AuditItemEntity,
  | 'asset_id'
  | 'asset_name'
  | 'asset_tag'
  | 'expected'
  | 'state'
  | 'expected_location_id'
  | 'scanned_at'
  | 'scan_location_id'
> & { expected_location_name: string | null; scan_location_name: string | null };

const ITEM_COLUMNS = `i.asset_id, i.asset_name, i.asset_tag, i.expected, i.state,
  i.expected_location_id, el.name AS expected_location_name, i.scanned_at, i.scan_location_id,
  sl.name AS scan_location_name`;
const ITEM_JOINS = `LEFT JOIN register.locations el ON el.id = i.expected_location_id
  LEFT JOIN register.locations sl ON sl.id = i.scan_location_id`;

/**
 * Fixes the expected set in one statement (one snapshot): the scope's assets with their
 * location now. Answers how many.
 */
export async function insertExpected(tx: EntityManager, audit: AuditRow): Promise<number> {
  const insert = (where: string) => `INSERT INTO register.audit_items (audit_id, asset_id,
      workspace_id, asset_name, asset_tag, expected, state, expected_location_id)
    SELECT $3, x.id, x.workspace_id, x.name, x.asset_tag, true, 'missing', x.location_id
      FROM register.assets x WHERE x.workspace_id = $1 AND ${where}
    ON CONFLICT DO NOTHING RETURNING 1`;
  let sql: string;
  let scope: unknown;
  if (audit.location_id !== null && audit.include_children) {
    sql = `WITH RECURSIVE ${SUBTREE_CTE}, ins AS (
      ${insert('x.location_id IN (SELECT id FROM subtree)')}) SELECT count(*)::int AS n FROM ins`;
    scope = audit.location_id;
  } else if (audit.location_id !== null) {
    sql = `WITH ins AS (${insert('x.location_id = $2')}) SELECT count(*)::int AS n FROM ins`;
    scope = audit.location_id;
  } else if (audit.category_id !== null) {
    sql = `WITH ins AS (${insert('x.category_id = $2')}) SELECT count(*)::int AS n FROM ins`;
    scope = audit.category_id;
  } else if (audit.asset_ids !== null) {
    sql = `WITH ins AS (${insert('x.id = ANY($2::text[])')}) SELECT count(*)::int AS n FROM ins`;
    scope = audit.asset_ids;
  } else {
    // The scope's location or category was deleted before the start: nothing is expected.
    return 0;
  }
  const [row] = await queryRows<{ n: number }>(tx, sql, [audit.workspace_id, scope, audit.id]);
  return row?.n ?? 0;
}

/** One item's state, locked: the scan's probe of the primary key. */
export async function lockItem(
  tx: EntityManager,
  auditId: string,
  assetId: string,
): Promise<Pick<ItemRow, 'state' | 'scanned_at' | 'expected_location_id'> | undefined> {
  const [row] = await queryRows<Pick<ItemRow, 'state' | 'scanned_at' | 'expected_location_id'>>(
    tx,
    `SELECT state, scanned_at, expected_location_id FROM register.audit_items
      WHERE audit_id = $1 AND asset_id = $2 FOR UPDATE`,
    [auditId, assetId],
  );
  return row;
}

export async function findItem(db: Queryable, auditId: string, assetId: string): Promise<ItemRow> {
  const [row] = await queryRows<ItemRow>(
    db,
    `SELECT ${ITEM_COLUMNS} FROM register.audit_items i ${ITEM_JOINS}
      WHERE i.audit_id = $1 AND i.asset_id = $2`,
    [auditId, assetId],
  );
  if (!row) throw new Error(`audit item ${auditId}/${assetId} vanished`);
  return row;
}

/** The states an item list of `state` covers. */
const STATES: Record<AuditItemState, string[]> = {
  expected: ['found', 'missing', 'misplaced'],
  found: ['found', 'misplaced'],
  missing: ['missing'],
  unexpected: ['unexpected'],
  misplaced: ['misplaced'],
};

export async function itemPage(
  db: Queryable,
  auditId: string,
  state: AuditItemState,
  page: number,
  pageSize: number,
): Promise<{ rows: ItemRow[]; total: number }> {
  const states = STATES[state];
  const [count] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.audit_items i
      WHERE i.audit_id = $1 AND i.state = ANY($2::text[])`,
    [auditId, states],
  );
  const rows = await queryRows<ItemRow>(
    db,
    `SELECT ${ITEM_COLUMNS} FROM register.audit_items i ${ITEM_JOINS}
      WHERE i.audit_id = $1 AND i.state = ANY($2::text[])
      ORDER BY i.asset_id LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    [auditId, states],
  );
  return { rows, total: count?.total ?? 0 };
}

/** Scans of an audit, newest first; `outcome` keeps one kind. */
export async function scanPage(
  db: Queryable,
  auditId: string,
  outcome: AuditScanOutcome | undefined,
  page: number,
  pageSize: number,
): Promise<{ rows: ItemRow[]; total: number }> {
  const params: unknown[] = [auditId];
  let where = 'i.audit_id = $1 AND i.scanned_at IS NOT NULL';
  if (outcome) {
    params.push(outcome === 'found' ? ['found', 'misplaced'] : [outcome]);
    where += ` AND i.state = ANY($2::text[])`;
  }
  const [count] = await queryRows<{ total: number }>(
    db,
    `SELECT count(*)::int AS total FROM register.audit_items i WHERE ${where}`,
    params,
  );
  const rows = await queryRows<ItemRow>(
    db,
    `SELECT ${ITEM_COLUMNS} FROM register.audit_items i ${ITEM_JOINS} WHERE ${where}
      ORDER BY i.scanned_at DESC, i.asset_id DESC
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    params,
  );
  return { rows, total: count?.total ?? 0 };
}

const ref = (id: string | null, name: string | null) =>
  id !== null && name !== null ? { id, name } : null;

export function toItem(row: ItemRow): AuditItem {
  return {
    asset: { id: row.asset_id, name: row.asset_name, asset_tag: row.asset_tag },
    state: row.state as AuditItem['state'],
    expected: row.expected,
    expected_location: ref(row.expected_location_id, row.expected_location_name),
    scanned_at: iso(row.scanned_at),
    scanned_location: ref(row.scan_location_id, row.scan_location_name),
  };
}

export function toScan(row: ItemRow, repeated: boolean): AuditScan {
  return {
    asset: { id: row.asset_id, name: row.asset_name, asset_tag: row.asset_tag },
    outcome: (row.state === 'missing' ? 'found' : row.state) as AuditScanOutcome,
    scanned_at: iso(row.scanned_at) ?? new Date().toISOString(),
    location: ref(row.scan_location_id, row.scan_location_name),
    repeated,
  };
}

// ---- jobs --------------------------------------------------------------------------------

/** One audit a job has work on, locked without waiting (another replica may hold it). */
export async function claimAuditJob(tx: EntityManager): Promise<AuditRow | undefined> {
  const [row] = await queryRows<AuditRow>(
    tx,
    `SELECT ${AUDIT_COLUMNS} FROM register.audits a
      WHERE a.status IN ('starting', 'completing')
      ORDER BY a.updated_at, a.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [],
  );
  return row;
}

/** The next items the completion has to settle (expected ones, in asset id order). */
export function unsettledItems(tx: EntityManager, auditId: string, limit: number) {
  return queryRows<ItemRow>(
    tx,
    `SELECT ${ITEM_COLUMNS} FROM register.audit_items i ${ITEM_JOINS}
      WHERE i.audit_id = $1 AND NOT i.settled
      ORDER BY i.asset_id LIMIT ${limit}`,
    [auditId],
  );
}

export async function settleItems(
  tx: EntityManager,
  auditId: string,
  assetIds: string[],
): Promise<void> {
  await tx.query(
    `UPDATE register.audit_items SET settled = true
      WHERE audit_id = $1 AND asset_id = ANY($2::text[])`,
    [auditId, assetIds],
  );
}
