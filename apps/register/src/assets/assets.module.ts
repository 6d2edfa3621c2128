import { Module } from '@nestjs/common';
import { AssetBin } from './asset-bin';
import { AssetBinPurge } from './asset-bin-purge';
import { AssetScanner } from './asset-scanner';
import { AssetsRpcController } from './assets.rpc-controller';
import { AssetsService } from './assets.service';
import { OverdueClockRpcController } from './overdue-clock.rpc-controller';
import { OverdueSweep } from './overdue-sweep';

@Module({
  controllers: [AssetsRpcController, OverdueClockRpcController],
  providers: [AssetsService, AssetBin, AssetBinPurge, AssetScanner, OverdueSweep],
})
export class AssetsModule {}
