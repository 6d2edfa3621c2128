import { Module } from '@nestjs/common';
import { AssetsRpcController } from './assets.rpc-controller';
import { AssetsService } from './assets.service';

@Module({ controllers: [AssetsRpcController], providers: [AssetsService] })
export class AssetsModule {}
