import { Module } from '@nestjs/common';
import { UsageRpcController } from './usage.rpc-controller';

@Module({ controllers: [UsageRpcController] })
export class CountersModule {}
