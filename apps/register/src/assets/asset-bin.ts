import {
  DELETED_ASSETS_SHOWN,
  DomainError,
  callerActivity,
  type AssetDetail,
  type CallerContext,
  type DeletedAsset,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog, queryOne, queryRows } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { lockWorkspaceCounters } from '../counters/workspace-counters';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { assetNotFound, findAssetRow } from './asset-lookup';
import { toDetail } from './asset-rows';
import { assertAssetSlot, noteLastAssetSlot } from './asset-slots';
import { tagTaken } from './asset-tags';

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
  'created_at',
] as const;

interface BinRow {
  id: string;
  name: string;
  asset_tag: string;
  deleted_at: Date;
}

/**
 * Soft delete and restore (the console's). A deleted asset moves, whole, from register.assets
 * to register.deleted_assets, so lists, searches, fetches, counts and the overdue sweep no
 * longer see it without any of them filtering; it frees its slot of the plan's asset limit,
 * and a restore takes one again.
 */
@Injectable()
export class AssetBin {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  listDeleted(caller: CallerContext): Promise<DeletedAsset[]> {
    return this.reads.run(async (db) => {
      const rows = await queryRows<BinRow>(
        db,
        `SELECT id, name, asset_tag, deleted_at FROM register.deleted_assets
          WHERE workspace_id = $1 ORDER BY deleted_at DESC, id DESC LIMIT $2`,
        [caller.workspaceId, DELETED_ASSETS_SHOWN],
      );
      return rows.map(toDeleted);
    });
  }

  delete(caller: CallerContext, id: string): Promise<DeletedAsset> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const row = await findAssetRow(tx, workspaceId, id, true);
      if (row.assigned_to_id !== null) {
        // Deleting it would hide an asset someone holds from their holdings; the person's
        // custody is ended by a check-in, which has its own event.
        throw new DomainError(
          'conflict',
          `Asset ${id} is checked out to ${row.assigned_name ?? row.assigned_to_id}; check it ` +
            'in before deleting it',
        );
      }
      const asset = toDetail(row);
      await lockWorkspaceCounters(tx, workspaceId);
      const binned = await queryOne<BinRow>(
        tx,
        `WITH moved AS (
           DELETE FROM register.assets WHERE id = $1 AND workspace_id = $2 RETURNING *
         )
         INSERT INTO register.deleted_assets (id, workspace_id, name, asset_tag, row)
         SELECT id, workspace_id, name, asset_tag, to_jsonb(moved) - 'search_text' FROM moved
         RETURNING id, name, asset_tag, deleted_at`,
        [id, workspaceId],
      );
      await tx.query(
        `UPDATE register.workspace_counters SET asset_count = asset_count - 1
          WHERE workspace_id = $1`,
        [workspaceId],
      );
      await this.outbox.write(tx, workspaceId, 'asset.deleted', asset);
      await this.activity.record(tx, workspaceId, {
        ...callerActivity(caller),
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: 'deleted',
      });
      return toDeleted(binned);
    });
  }

  restore(caller: CallerContext, id: string): Promise<AssetDetail> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const binned = await this.lockBinned(tx, workspaceId, id);
      const counter = await lockWorkspaceCounters(tx, workspaceId);
      assertAssetSlot(caller, counter);
      const holder = await tagTaken(tx, workspaceId, binned.asset_tag);
      if (holder) {
        throw new DomainError(
          'conflict',
          `Asset ${id} cannot be restored: its asset_tag ${binned.asset_tag} is now used by ` +
            `asset ${holder}; give that asset another tag first`,
        );
      }
      const columns = RESTORED_COLUMNS.join(', ');
      await tx.query(
        `INSERT INTO register.assets (${columns}, updated_at)
         SELECT ${RESTORED_COLUMNS.map((column) => `r.${column}`).join(', ')}, now()
           FROM register.deleted_assets d,
                jsonb_populate_record(NULL::register.assets, d.row) r
          WHERE d.id = $1 AND d.workspace_id = $2`,
        [id, workspaceId],
      );
      await tx.query(`DELETE FROM register.deleted_assets WHERE id = $1 AND workspace_id = $2`, [
        id,
        workspaceId,
      ]);
      await tx.query(
        `UPDATE register.workspace_counters SET asset_count = asset_count + 1
          WHERE workspace_id = $1`,
        [workspaceId],
      );
      const asset = toDetail(await findAssetRow(tx, workspaceId, id));
      await this.outbox.write(tx, workspaceId, 'asset.restored', asset);
      await this.activity.record(tx, workspaceId, {
        ...callerActivity(caller),
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: 'restored',
      });
      await noteLastAssetSlot(this.outbox, tx, caller, counter.asset_count + 1);
      return asset;
    });
  }

  /** The bin's row of `id`, locked; an asset that is not deleted is a conflict, not a 404. */
  private async lockBinned(tx: EntityManager, workspaceId: string, id: string): Promise<BinRow> {
    if (id.length > 64 || id.includes('\u0000')) throw assetNotFound(id);
    const [binned] = await queryRows<BinRow>(
      tx,
      `SELECT id, name, asset_tag, deleted_at FROM register.deleted_assets
        WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
      [id, workspaceId],
    );
    if (binned) return binned;
    const [live] = await queryRows<{ id: string }>(
      tx,
      `SELECT id FROM register.assets WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    if (live) throw new DomainError('conflict', `Asset ${id} is not deleted`);
    throw assetNotFound(id);
  }
}

function toDeleted(row: BinRow): DeletedAsset {
  return {
    id: row.id,
    name: row.name,
    asset_tag: row.asset_tag,
    deleted_at: row.deleted_at.toISOString(),
  };
}
