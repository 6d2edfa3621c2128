import { Module } from '@nestjs/common';
import { DueDatesModule } from '../due-dates/due-dates.module';
import { AssetBin } from './asset-bin';
import { AssetBulk } from './asset-bulk';
import { AssetBinPurge } from './asset-bin-purge';
import { AssetScanner } from './asset-scanner';
import { AssetUpserts } from './asset-upsert';
import { AssetsRpcController } from './assets.rpc-controller';
import { AssetsService } from './assets.service';
import { AssignmentOverdue } from './assignment-overdue';
import { OverdueCatchUp } from './overdue-catch-up';
import { WarrantyExpiryDueDates } from './warranty-expiry';

@Module({
  imports: [DueDatesModule],
  controllers: [AssetsRpcController],
  providers: [
    AssetsService,
    AssetBin,
    AssetBulk,
    AssetBinPurge,
    AssetScanner,
    AssetUpserts,
    AssignmentOverdue,
    OverdueCatchUp,
    WarrantyExpiryDueDates,
  ],
  exports: [AssetsService, AssetScanner],
})
export class AssetsModule {}
