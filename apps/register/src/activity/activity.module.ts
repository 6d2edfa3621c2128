import { Module } from '@nestjs/common';
import { ActivityRpcController } from './activity.rpc-controller';

@Module({ controllers: [ActivityRpcController] })
export class ActivityModule {}
