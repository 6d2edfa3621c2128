import {
  DomainError,
  callerActivity,
  type AssetDetail,
  type CallerContext,
  type ScanMatch,
  type ScannedAsset,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WriteTransactions } from '../requests/write-transactions';
import {
  assetsTagged,
  assetsWithSerial,
  findAssetRow,
  markScanned,
  toDetail,
  type ScanCandidate,
} from './asset.store';

/** What a scan looks up: a code (tag, else serial number), a tag, a serial number, an id. */
export type ScanLookup =
  { code: string } | { asset_tag: string } | { serial_number: string } | { asset_id: string };

const WHAT: Record<ScanMatch, string> = {
  asset_tag: 'asset tag',
  serial_number: 'serial number',
  asset_id: 'id',
};

/**
 * A scan in the console: a code as a barcode scanner types it finds the asset whose tag, else
 * whose serial number, it is (in any case; the exact case wins), records when it was seen and
 * fires `asset.scanned`. The asset's updated_at does not move: a scan changes nothing about it.
 * Audits (audits/) scan through `findIn` and `recordIn`, in their own transaction.
 */
@Injectable()
export class AssetScanner {
  constructor(
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  scan(caller: CallerContext, code: string): Promise<ScannedAsset> {
    const typed = code.trim();
    return this.writes.run(caller.workspaceId, async (tx) => {
      const { id, matched } = await this.findIn(tx, caller.workspaceId, { code: typed });
      const asset = await this.recordIn(tx, caller, id, typed, matched);
      return { asset, matched };
    });
  }

  /**
   * The asset a scan finds: 404 when none (naming the field looked up, but for a bare code),
   * 409 when several assets share the code and none has it in its exact case.
   */
  async findIn(
    tx: EntityManager,
    workspaceId: string,
    lookup: ScanLookup,
  ): Promise<{ id: string; matched: ScanMatch }> {
    if ('asset_id' in lookup) {
      const [row] = await tx.query<{ id: string }[]>(
        `SELECT id FROM register.assets WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, lookup.asset_id],
      );
      if (!row) throw new DomainError('not_found', `asset_id: asset ${lookup.asset_id} not found`);
      return { id: row.id, matched: 'asset_id' };
    }
    let matched: ScanMatch;
    let found: ScanCandidate[];
    let typed: string;
    if ('code' in lookup) {
      typed = lookup.code.trim();
      matched = 'asset_tag';
      found = await assetsTagged(tx, workspaceId, typed);
      if (found.length === 0) {
        matched = 'serial_number';
        found = await assetsWithSerial(tx, workspaceId, typed);
      }
      if (found.length === 0) {
        throw new DomainError('not_found', `No asset has the asset tag or serial number ${typed}`);
      }
    } else {
      matched = 'asset_tag' in lookup ? 'asset_tag' : 'serial_number';
      typed = ('asset_tag' in lookup ? lookup.asset_tag : lookup.serial_number).trim();
      found =
        matched === 'asset_tag'
          ? await assetsTagged(tx, workspaceId, typed)
          : await assetsWithSerial(tx, workspaceId, typed);
      if (found.length === 0) {
        throw new DomainError(
          'not_found',
          `${matched}: no asset has the ${WHAT[matched]} ${typed}`,
        );
      }
    }
    const [first, second] = found as [ScanCandidate, ...ScanCandidate[]];
    if (second && (!first.exact || second.exact)) {
      throw new DomainError(
        'conflict',
        `Several assets have the ${WHAT[matched]} ${typed}; scan or type their asset tag exactly`,
      );
    }
    return { id: first.id, matched };
  }

  /** Records that asset `id` was seen: last_scanned_at, `asset.scanned`, its feed entry. */
  async recordIn(
    tx: EntityManager,
    caller: CallerContext,
    id: string,
    code: string,
    matched: ScanMatch,
  ): Promise<AssetDetail> {
    const workspaceId = caller.workspaceId;
    await markScanned(tx, workspaceId, id);
    const asset = toDetail(await findAssetRow(tx, workspaceId, id));
    await this.outbox.write(tx, workspaceId, 'asset.scanned', {
      asset,
      code,
      matched,
      at: asset.last_scanned_at ?? new Date().toISOString(),
    });
    await this.activity.record(tx, workspaceId, {
      ...callerActivity(caller),
      recordType: 'asset',
      recordId: asset.id,
      recordName: asset.name,
      action: 'scanned',
      changes: [{ field: matched, from: null, to: code }],
    });
    return asset;
  }
}
