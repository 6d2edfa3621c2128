import { Module } from '@nestjs/common';
import { AssetsRpcController } from './assets.rpc-controller';
import { AssetsService } from './assets.service';
import { OverdueSweep } from './overdue-sweep';

@Module({ controllers: [AssetsRpcController], providers: [AssetsService, OverdueSweep] })
export class AssetsModule {}
