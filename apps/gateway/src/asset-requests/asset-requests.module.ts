import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { AssetRequestsController } from './asset-requests.controller';

/** The public API's asset request routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [AssetRequestsController],
})
export class AssetRequestsModule {}
