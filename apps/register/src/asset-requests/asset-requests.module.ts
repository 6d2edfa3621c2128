import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { BookingsModule } from '../bookings/bookings.module';
import { AssetRequestsRpcController } from './asset-requests.rpc-controller';
import { AssetRequestsService } from './asset-requests.service';

@Module({
  imports: [AssetsModule, BookingsModule],
  controllers: [AssetRequestsRpcController],
  providers: [AssetRequestsService],
})
export class AssetRequestsModule {}
