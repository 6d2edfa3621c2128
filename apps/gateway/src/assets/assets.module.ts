import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { AssetBulkController } from './asset-bulk.controller';
import { AssetsController } from './assets.controller';

/** The public API's assets routes; the register owns the rules and the data. */
@Module({ imports: [RegisterClientModule], controllers: [AssetsController, AssetBulkController] })
export class AssetsModule {}
