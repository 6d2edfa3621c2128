import { Module } from '@nestjs/common';
import { AssetExports } from './asset-export';
import { ExportsRpcController } from './exports.rpc-controller';
import { PersonExports } from './person-export';

/** CSV exports of assets and people (issue 35): streamed by the gateway, chunk by chunk. */
@Module({
  controllers: [ExportsRpcController],
  providers: [AssetExports, PersonExports],
})
export class ExportsModule {}
