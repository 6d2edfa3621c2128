import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { WorkerClientModule } from '../../worker-client/worker-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ActivityFeed } from './activity-feed';
import { ConsoleActivityController } from './console-activity.controller';

/** The workspace's activity feed, merged from the gateway, the register and the worker. */
@Module({
  imports: [ConsoleSessionModule, RegisterClientModule, WorkerClientModule],
  controllers: [ConsoleActivityController],
  providers: [ActivityFeed],
})
export class ConsoleActivityModule {}
