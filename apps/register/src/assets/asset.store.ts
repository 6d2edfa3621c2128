import {
  DomainError,
  type AssetDetail,
  type AssetSummary,
  type DeletedAsset,
  type NamedRef,
} from '@custodian/contracts';
import { isUniqueViolation, queryOne, queryRows, type Queryable } from '@custodian/persistence';
import { ASSET_BY_ID, type HeldSeatJson } from '@custodian/register-sql';
import type { EntityManager } from 'typeorm';
import type { CategoryEntity } from '../categories/category.entity';
import type { HoldingRow } from '../custody/custody.store';
import { toHeldSeats } from '../licenses/license.store';
import type { LocationEntity } from '../locations/location.entity';
import type { PersonEntity } from '../people/person.entity';
import type { Checked, SameColumns } from '../sql/same-columns';
import type { UpdateSet } from '../sql/update-set';
import type { AssetEntity } from './asset.entity';
import type { DeletedAssetEntity } from './deleted-asset.entity';

/*
 * register.assets and its bin, register.deleted_assets: their SQL and their row types, and the
 * views a row makes. What a person holds is custody's (custody/custody.store.ts).
 */

// ---------------------------------------------------------------------------------------------
// Reads

/**
 * The two asset reads the API serves (GET /assets, GET /assets/{id}): whole statements in
 * @custodian/register-sql, where the read bench's bare handler takes the same SQL without
 * importing an app. Everything else on register.assets is below.
 */
export { ASSET_BY_ID, ASSET_LIST } from '@custodian/register-sql';

/**
 * A row of the summary query: columns of the asset, and the names its LEFT JOINs bring (null
 * without a match). Column names are the SQL aliases above.
 */
export type AssetSummaryRow = Pick<
  AssetEntity,
  | 'id'
  | 'name'
  | 'sku'
  | 'status'
  | 'brand'
  | 'model'
  | 'serial_number'
  | 'assigned_to_id'
  | 'updated_at'
> & {
  category_name: CategoryEntity['name'] | null;
  assigned_name: PersonEntity['full_name'] | null;
};

export type AssetDetailRow = AssetSummaryRow &
  Pick<
    AssetEntity,
    | 'asset_tag'
    | 'category_id'
    | 'location_id'
    | 'assigned_at'
    | 'custody_due_at'
    | 'custom_fields'
    | 'condition'
    | 'last_scanned_at'
    | 'purchase_date'
    | 'warranty_expires_on'
    | 'created_at'
  > & {
    location_name: LocationEntity['name'] | null;
    seats: HeldSeatJson[];
  };

/** custody/ reads a person's holdings typed by HoldingRow: the entity is held to it. */
export type HoldingColumns = Checked<
  SameColumns<
    HoldingRow,
    Pick<AssetEntity, 'id' | 'name' | 'asset_tag'> & {
      assigned_at: NonNullable<AssetEntity['assigned_at']>;
    }
  >
>;

/**
 * The one way an asset is looked up by id: always within the caller's workspace, and the same
 * 404 whether the id is unknown, of another workspace, or in the bin.
 */
export async function findAssetRow(
  manager: EntityManager,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<AssetDetailRow> {
  if (id.length > 64 || id.includes('\u0000')) throw assetNotFound(id);
  if (forUpdate) {
    // The lock first, in a statement of its own: after waiting for a concurrent PATCH, a
    // locking SELECT rechecks only the locked row and would keep the joined rows of its older
    // snapshot (the previous holder's name, empty when there was none). The read below sees
    // the committed state.
    await manager.query(
      `SELECT 1 FROM register.assets WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
  }
  const rows = await manager.query<AssetDetailRow[]>(ASSET_BY_ID, [id, workspaceId]);
  const row = rows[0];
  if (!row) throw assetNotFound(id);
  return row;
}

export function assetNotFound(id: string): DomainError {
  return new DomainError('not_found', `Asset ${id} not found`);
}

export function toSummary(row: AssetSummaryRow): AssetSummary {
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    status: row.status,
    brand: row.brand,
    model: row.model,
    serial_number: row.serial_number,
    category: row.category_name === null ? null : { name: row.category_name },
    assigned_to: holderOf(row),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toDetail(row: AssetDetailRow): AssetDetail {
  const holder = holderOf(row);
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    status: row.status,
    brand: row.brand,
    model: row.model,
    serial_number: row.serial_number,
    asset_tag: row.asset_tag,
    category:
      row.category_id === null ? null : { id: row.category_id, name: row.category_name ?? '' },
    location:
      row.location_id === null ? null : { id: row.location_id, name: row.location_name ?? '' },
    assigned_to: holder,
    custody:
      holder === null || row.assigned_at === null
        ? null
        : {
            person: holder,
            since: row.assigned_at.toISOString(),
            due_at: row.custody_due_at?.toISOString() ?? null,
          },
    custom_fields: row.custom_fields,
    condition: row.condition,
    last_scanned_at: row.last_scanned_at?.toISOString() ?? null,
    purchase_date: row.purchase_date,
    warranty_expires_on: row.warranty_expires_on,
    seats: toHeldSeats(row.seats),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function holderOf(row: AssetSummaryRow): NamedRef | null {
  return row.assigned_to_id === null
    ? null
    : { id: row.assigned_to_id, name: row.assigned_name ?? '' };
}

// ---------------------------------------------------------------------------------------------
// Writes

/** The columns POST /assets writes (assigned_at is now() when assigned_to_id is set). */
export type NewAssetRow = Pick<
  AssetEntity,
  | 'id'
  | 'workspace_id'
  | 'name'
  | 'sku'
  | 'status'
  | 'brand'
  | 'model'
  | 'serial_number'
  | 'asset_tag'
  | 'category_id'
  | 'location_id'
  | 'custom_fields'
  | 'assigned_to_id'
  | 'custody_due_at'
  | 'condition'
  | 'purchase_date'
  | 'warranty_expires_on'
>;

export async function insertAsset(tx: EntityManager, asset: NewAssetRow): Promise<void> {
  await tx.query(
    `INSERT INTO register.assets (id, workspace_id, name, sku, status, brand, model,
             serial_number, asset_tag, category_id, location_id, custom_fields, assigned_to_id,
             assigned_at, custody_due_at, condition, purchase_date, warranty_expires_on)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
             CASE WHEN $13::text IS NULL THEN NULL ELSE now() END, $14, $15, $16, $17)`,
    [
      asset.id,
      asset.workspace_id,
      asset.name,
      asset.sku,
      asset.status,
      asset.brand,
      asset.model,
      asset.serial_number,
      asset.asset_tag,
      asset.category_id,
      asset.location_id,
      JSON.stringify(asset.custom_fields),
      asset.assigned_to_id,
      asset.custody_due_at,
      asset.condition,
      asset.purchase_date,
      asset.warranty_expires_on,
    ],
  );
}

/** A PATCH's columns (`update`: the asset's id and workspace first). */
export async function updateAsset(tx: EntityManager, update: UpdateSet): Promise<void> {
  await tx.query(update.statement('register.assets'), update.params);
}

const TAG_CONSTRAINT = 'assets_workspace_tag';

/** The id of the asset of the workspace that has `tag`, if any. */
export async function tagTaken(
  tx: EntityManager,
  workspaceId: string,
  tag: string,
): Promise<string | null> {
  const rows = await tx.query<Array<Pick<AssetEntity, 'id'>>>(
    `SELECT id FROM register.assets WHERE workspace_id = $1 AND asset_tag = $2`,
    [workspaceId, tag],
  );
  return rows[0]?.id ?? null;
}

export async function assertTagFree(
  tx: EntityManager,
  workspaceId: string,
  tag: string,
): Promise<void> {
  const holder = await tagTaken(tx, workspaceId, tag);
  if (holder) throw tagConflict(tag);
}

function tagConflict(tag: string): DomainError {
  return new DomainError('conflict', `asset_tag ${tag} is already used by another asset`);
}

/** Two concurrent writes of one tag both pass the check; the unique index decides. */
export function translateTagConflict(error: unknown, tag: string | undefined): unknown {
  if (isUniqueViolation(error, TAG_CONSTRAINT)) return tagConflict(tag?.trim() ?? 'given');
  return error;
}

// ---------------------------------------------------------------------------------------------
// Scans (AssetScanner)

/** An asset a scanned code names; `exact` when the case matches too. */
export type ScanCandidate = Pick<AssetEntity, 'id'> & { exact: boolean };

/** At most two assets whose tag is `code` in any case, the exact case first. */
export function assetsTagged(
  tx: EntityManager,
  workspaceId: string,
  code: string,
): Promise<ScanCandidate[]> {
  return queryRows<ScanCandidate>(
    tx,
    `SELECT id, asset_tag = $2 AS exact FROM register.assets
          WHERE workspace_id = $1 AND lower(asset_tag) = lower($2)
          ORDER BY exact DESC, id LIMIT 2`,
    [workspaceId, code],
  );
}

/** At most two assets whose serial number is `code` in any case, the exact case first. */
export function assetsWithSerial(
  tx: EntityManager,
  workspaceId: string,
  code: string,
): Promise<ScanCandidate[]> {
  return queryRows<ScanCandidate>(
    tx,
    `SELECT id, serial_number = $2 AS exact FROM register.assets
            WHERE workspace_id = $1 AND lower(serial_number) = lower($2)
            ORDER BY exact DESC, id LIMIT 2`,
    [workspaceId, code],
  );
}

/** Records a scan: last_scanned_at only, so the asset's updated_at does not move. */
export async function markScanned(
  tx: EntityManager,
  workspaceId: string,
  id: string,
): Promise<void> {
  await tx.query(
    `UPDATE register.assets SET last_scanned_at = now() WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId],
  );
}

// ---------------------------------------------------------------------------------------------
// The bin (AssetBin)

/**
 * The stored columns of register.assets (all but the generated search_text and updated_at,
 * which a restore sets): what a restore copies back out of the bin's JSON. A test compares it
 * with the table, so a new column cannot be forgotten here.
 */
export const RESTORED_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'sku',
  'status',
  'brand',
  'model',
  'serial_number',
  'asset_tag',
  'category_id',
  'location_id',
  'assigned_to_id',
  'assigned_at',
  'custody_due_at',
  'overdue_at',
  'custom_fields',
  'condition',
  'last_scanned_at',
  'purchase_date',
  'warranty_expires_on',
  'created_at',
] as const;

export type BinRow = Pick<DeletedAssetEntity, 'id' | 'name' | 'asset_tag' | 'deleted_at'>;

export function binnedAssets(db: Queryable, workspaceId: string, limit: number): Promise<BinRow[]> {
  return queryRows<BinRow>(
    db,
    `SELECT id, name, asset_tag, deleted_at FROM register.deleted_assets
          WHERE workspace_id = $1 ORDER BY deleted_at DESC, id DESC LIMIT $2`,
    [workspaceId, limit],
  );
}

/** Moves the asset's row, whole, from register.assets into the bin. */
export function moveToBin(tx: EntityManager, workspaceId: string, id: string): Promise<BinRow> {
  return queryOne<BinRow>(
    tx,
    `WITH moved AS (
           DELETE FROM register.assets WHERE id = $1 AND workspace_id = $2 RETURNING *
         )
         INSERT INTO register.deleted_assets (id, workspace_id, name, asset_tag, row)
         SELECT id, workspace_id, name, asset_tag, to_jsonb(moved) - 'search_text' FROM moved
         RETURNING id, name, asset_tag, deleted_at`,
    [id, workspaceId],
  );
}

/** Moves the binned row back into register.assets under its id, and out of the bin. */
/**
 * A column of the stored row as it goes back: a category or location deleted while the asset
 * was in the bin (they may be, once nothing outside the bin uses them) comes back as none.
 */
function restoredValue(column: string): string {
  if (column === 'category_id' || column === 'location_id') {
    const table = column === 'category_id' ? 'categories' : 'locations';
    return `(SELECT k.id FROM register.${table} k WHERE k.id = r.${column} AND k.workspace_id = r.workspace_id)`;
  }
  return `r.${column}`;
}

export async function restoreFromBin(
  tx: EntityManager,
  workspaceId: string,
  id: string,
): Promise<void> {
  const columns = RESTORED_COLUMNS.join(', ');
  await tx.query(
    `INSERT INTO register.assets (${columns}, updated_at)
         SELECT ${RESTORED_COLUMNS.map((column) => restoredValue(column)).join(', ')}, now()
           FROM register.deleted_assets d,
                jsonb_populate_record(NULL::register.assets, d.row) r
          WHERE d.id = $1 AND d.workspace_id = $2`,
    [id, workspaceId],
  );
  await tx.query(`DELETE FROM register.deleted_assets WHERE id = $1 AND workspace_id = $2`, [
    id,
    workspaceId,
  ]);
}

/** The bin's row of `id`, locked; an asset that is not deleted is a conflict, not a 404. */
export async function lockBinned(
  tx: EntityManager,
  workspaceId: string,
  id: string,
): Promise<BinRow> {
  if (id.length > 64 || id.includes('\u0000')) throw assetNotFound(id);
  const [binned] = await queryRows<BinRow>(
    tx,
    `SELECT id, name, asset_tag, deleted_at FROM register.deleted_assets
        WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
    [id, workspaceId],
  );
  if (binned) return binned;
  const [live] = await queryRows<Pick<AssetEntity, 'id'>>(
    tx,
    `SELECT id FROM register.assets WHERE id = $1 AND workspace_id = $2`,
    [id, workspaceId],
  );
  if (live) throw new DomainError('conflict', `Asset ${id} is not deleted`);
  throw assetNotFound(id);
}

/** `retentionDays`: BIN_RETENTION_DAYS (0: kept for ever, no purge date). */
export function toDeleted(row: BinRow, retentionDays: number): DeletedAsset {
  return {
    id: row.id,
    name: row.name,
    asset_tag: row.asset_tag,
    deleted_at: row.deleted_at.toISOString(),
    purge_at:
      retentionDays === 0
        ? null
        : new Date(row.deleted_at.getTime() + retentionDays * 86_400_000).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Overdue check-outs (AssignmentOverdue, on the due-date engine)

/**
 * For the overdue notice of asset `id` due at `dueAt`: locks the asset without waiting, and
 * answers `busy` when a write holds it (the engine holds the notice, and that write may be
 * about to cancel it: waiting could deadlock). Else `due` when the asset is still checked out
 * with that due date and not marked overdue, marking it overdue at `now`; else `obsolete`.
 *
 * overdue_at is kept (and set here) while registers of the version before the engine may run
 * beside this one: their sweep fires a check-out whose overdue_at is null, so setting it keeps
 * them from firing it again, and a check-out they fired first is not fired here (ADR 0020).
 */
export async function claimOverdueCheckout(
  tx: EntityManager,
  workspaceId: string,
  id: string,
  dueAt: Date,
  now: Date,
): Promise<'due' | 'busy' | 'obsolete'> {
  const [row] = await queryRows<{ due: boolean | null }>(
    tx,
    `SELECT assigned_to_id IS NOT NULL AND custody_due_at = $3 AND overdue_at IS NULL AS due
       FROM register.assets WHERE id = $1 AND workspace_id = $2
        FOR UPDATE SKIP LOCKED`,
    [id, workspaceId, dueAt],
  );
  if (!row) {
    // Locked, or gone (deleted: in the bin now).
    const [exists] = await queryRows<Pick<AssetEntity, 'id'>>(
      tx,
      `SELECT id FROM register.assets WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return exists ? 'busy' : 'obsolete';
  }
  if (!row.due) return 'obsolete';
  await tx.query(`UPDATE register.assets SET overdue_at = $3 WHERE id = $1 AND workspace_id = $2`, [
    id,
    workspaceId,
    now,
  ]);
  return 'due';
}

/** A check-out past its due date (OverdueCatchUp). */
export type DueCheckoutRow = Pick<AssetEntity, 'id' | 'workspace_id'> & {
  custody_due_at: NonNullable<AssetEntity['custody_due_at']>;
};

/**
 * At most `limit` check-outs past their due date at `now` and not marked overdue (after
 * `after`, in the order of their due dates), locked
 * without waiting (a write in progress is skipped: it arms its own notice). Through the
 * partial index assets_custody_due, so it costs the check-outs due and not yet fired: those
 * the engine fires within a round, and any that a register of the previous version gave a due
 * date without a notice.
 */
export function dueCheckouts(
  tx: EntityManager,
  now: Date,
  limit: number,
  after: Pick<DueCheckoutRow, 'custody_due_at' | 'id'> | null,
): Promise<DueCheckoutRow[]> {
  return queryRows<DueCheckoutRow>(
    tx,
    `SELECT id, workspace_id, custody_due_at FROM register.assets
      WHERE custody_due_at <= $1 AND overdue_at IS NULL AND assigned_to_id IS NOT NULL
        AND ($3::timestamptz IS NULL OR (custody_due_at, id) > ($3, $4))
      ORDER BY custody_due_at, id
      LIMIT $2
      FOR UPDATE SKIP LOCKED`,
    [now, limit, after?.custody_due_at ?? null, after?.id ?? null],
  );
}

// ---------------------------------------------------------------------------------------------
// Custody of several assets at once (a booking's check-out and check-in)

/** What a booking's hand-out checks of each asset, locked. */
export type LockedAssetRow = Pick<AssetEntity, 'id' | 'name' | 'status' | 'assigned_to_id'>;

/** The assets of the workspace among `ids`, locked FOR UPDATE in id order (no deadlock). */
export function lockAssets(
  tx: EntityManager,
  workspaceId: string,
  ids: string[],
): Promise<LockedAssetRow[]> {
  return queryRows<LockedAssetRow>(
    tx,
    `SELECT id, name, status, assigned_to_id FROM register.assets
      WHERE workspace_id = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`,
    [workspaceId, ids],
  );
}

/** Checks the assets out to `personId`, due back at `dueAt`: one statement for all. */
export async function handOut(
  tx: EntityManager,
  workspaceId: string,
  ids: string[],
  personId: string,
  dueAt: Date,
): Promise<void> {
  await tx.query(
    `UPDATE register.assets
        SET assigned_to_id = $3, assigned_at = now(), custody_due_at = $4, overdue_at = NULL,
            updated_at = now()
      WHERE workspace_id = $1 AND id = ANY($2::text[])`,
    [workspaceId, ids, personId, dueAt],
  );
}

/** The check-outs of `ids` are due back at `dueAt` now (a booking moved its end). */
export async function moveDue(
  tx: EntityManager,
  workspaceId: string,
  ids: string[],
  dueAt: Date,
): Promise<void> {
  await tx.query(
    `UPDATE register.assets SET custody_due_at = $3, overdue_at = NULL, updated_at = now()
      WHERE workspace_id = $1 AND id = ANY($2::text[])`,
    [workspaceId, ids, dueAt],
  );
}

/** Checks the assets in: nobody holds them, no due date. */
export async function takeBack(
  tx: EntityManager,
  workspaceId: string,
  ids: string[],
): Promise<void> {
  await tx.query(
    `UPDATE register.assets
        SET assigned_to_id = NULL, assigned_at = NULL, custody_due_at = NULL, overdue_at = NULL,
            updated_at = now()
      WHERE workspace_id = $1 AND id = ANY($2::text[])`,
    [workspaceId, ids],
  );
}
