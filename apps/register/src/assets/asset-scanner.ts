import {
  DomainError,
  callerActivity,
  type CallerContext,
  type ScanMatch,
  type ScannedAsset,
} from '@custodian/contracts';
import { OutboxWriter } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { WriteTransactions } from '../requests/write-transactions';
import { assetsTagged, assetsWithSerial, findAssetRow, markScanned, toDetail } from './asset.store';

/**
 * A scan in the console: a code as a barcode scanner types it finds the asset whose tag, else
 * whose serial number, it is (in any case; the exact case wins), records when it was seen and
 * fires `asset.scanned`. The asset's updated_at does not move: a scan changes nothing about it.
 */
@Injectable()
export class AssetScanner {
  constructor(
    private readonly writes: WriteTransactions,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
  ) {}

  scan(caller: CallerContext, code: string): Promise<ScannedAsset> {
    const workspaceId = caller.workspaceId;
    const typed = code.trim();
    return this.writes.run(workspaceId, async (tx) => {
      let matched: ScanMatch = 'asset_tag';
      let found = await assetsTagged(tx, workspaceId, typed);
      if (found.length === 0) {
        matched = 'serial_number';
        found = await assetsWithSerial(tx, workspaceId, typed);
      }
      const [first, second] = found;
      if (!first) {
        throw new DomainError('not_found', `No asset has the asset tag or serial number ${typed}`);
      }
      if (second && (!first.exact || second.exact)) {
        throw new DomainError(
          'conflict',
          `Several assets have the ${matched === 'asset_tag' ? 'asset tag' : 'serial number'} ` +
            `${typed}; scan or type their asset tag exactly`,
        );
      }
      await markScanned(tx, workspaceId, first.id);
      const asset = toDetail(await findAssetRow(tx, workspaceId, first.id));
      await this.outbox.write(tx, workspaceId, 'asset.scanned', {
        asset,
        code: typed,
        matched,
        at: asset.last_scanned_at ?? new Date().toISOString(),
      });
      await this.activity.record(tx, workspaceId, {
        ...callerActivity(caller),
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: 'scanned',
        changes: [{ field: matched, from: null, to: typed }],
      });
      return { asset, matched };
    });
  }
}
