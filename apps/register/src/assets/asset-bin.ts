import {
  DELETED_ASSETS_SHOWN,
  DomainError,
  callerActivity,
  type AssetDetail,
  type CallerContext,
  type DeletedAsset,
} from '@custodian/contracts';
import { OutboxWriter, assertIfMatch } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RegisterConfig } from '../config/register-config';
import { lockWorkspaceCounters } from '../counters/workspace-counters';
import { ReadTransactions } from '../requests/read-transactions';
import { WriteTransactions } from '../requests/write-transactions';
import { cancelNotices } from '../due-dates/due-notice.store';
import { armWarrantyExpiry } from './warranty-expiry';
import { assertAssetSlot, noteLastAssetSlot } from './asset-slots';
import { assetSubject } from './assignment-overdue';
import {
  binnedAssets,
  findAssetRow,
  lockBinned,
  moveToBin,
  restoreFromBin,
  tagTaken,
  toDeleted,
  toDetail,
} from './asset.store';

/**
 * Soft delete and restore (the console's). A deleted asset moves, whole, from register.assets
 * to register.deleted_assets, so lists, searches, fetches and counts no longer see it without
 * any of them filtering, and its due-date notices are cancelled; it frees its slot of the
 * plan's asset limit, and a restore takes one again.
 */
@Injectable()
export class AssetBin {
  constructor(
    private readonly reads: ReadTransactions,
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'BIN_RETENTION_DAYS'>,
  ) {}

  listDeleted(caller: CallerContext): Promise<DeletedAsset[]> {
    return this.reads.run(async (db) => {
      const rows = await binnedAssets(db, caller.workspaceId, DELETED_ASSETS_SHOWN);
      return rows.map((row) => toDeleted(row, this.config.BIN_RETENTION_DAYS));
    });
  }

  /** `ifMatch`: the client's If-Match, checked against the asset under its row lock. */
  delete(caller: CallerContext, id: string, ifMatch?: readonly string[]): Promise<DeletedAsset> {
    return this.writes.run(caller.workspaceId, (tx) => this.deleteIn(tx, caller, id, ifMatch));
  }

  /**
   * The delete inside a transaction someone else runs: a bulk change (asset-bulk.ts) moves
   * each asset of a chunk to the bin with the same rule, row, event and feed entry.
   */
  async deleteIn(
    tx: EntityManager,
    caller: CallerContext,
    id: string,
    ifMatch?: readonly string[],
  ): Promise<DeletedAsset> {
    const workspaceId = caller.workspaceId;
    const row = await findAssetRow(tx, workspaceId, id, true);
    assertIfMatch(ifMatch, toDetail(row), `Asset ${id}`);
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
    // Every date of the asset stops with it. A checked-out asset is refused above, so no
    // overdue notice is armed today; the dates modules add to assets (warranties) are.
    // Before the counters' lock: the due-date engine may hold one of these notices while its
    // handler waits for that row (ADR 0020).
    await cancelNotices(tx, assetSubject(workspaceId, id));
    await lockWorkspaceCounters(tx, workspaceId);
    const binned = await moveToBin(tx, workspaceId, id);
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
    return toDeleted(binned, this.config.BIN_RETENTION_DAYS);
  }

  restore(caller: CallerContext, id: string): Promise<AssetDetail> {
    const workspaceId = caller.workspaceId;
    return this.writes.run(workspaceId, async (tx) => {
      const binned = await lockBinned(tx, workspaceId, id);
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
      await restoreFromBin(tx, workspaceId, id);
      // It was deleted checked in, so it had no overdue notice. Its warranty's dates are armed
      // again, without the thresholds passed while it was in the bin (nothing fires twice; a
      // warranty that ended meanwhile fires warranty.expired now, once). No armed notice of
      // it exists for the engine to hold (they were cancelled with the delete), so after the
      // counters' lock is fine here.
      const restored = await findAssetRow(tx, workspaceId, id);
      await armWarrantyExpiry(tx, workspaceId, id, restored.warranty_expires_on, {
        passed: false,
      });
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
}
