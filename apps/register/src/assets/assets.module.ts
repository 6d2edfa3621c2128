import { Module } from '@nestjs/common';
import { AssetBin } from './asset-bin';
import { AssetScanner } from './asset-scanner';
import { AssetsRpcController } from './assets.rpc-controller';
import { AssetsService } from './assets.service';
import { OverdueSweep } from './overdue-sweep';

@Module({
  controllers: [AssetsRpcController],
  providers: [AssetsService, AssetBin, AssetScanner, OverdueSweep],
})
export class AssetsModule {}
