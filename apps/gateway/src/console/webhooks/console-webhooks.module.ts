import { Module } from '@nestjs/common';
import { WorkerClientModule } from '../../worker-client/worker-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleSignInModule } from '../sign-in/console-sign-in.module';
import { ConsoleDeliveriesController } from './console-deliveries.controller';
import { ConsoleEventsController } from './console-events.controller';
import { ConsoleWebhooksController } from './console-webhooks.controller';

/** The event catalog, webhook endpoints and the delivery log, owned by the webhook-worker. */
@Module({
  imports: [ConsoleSessionModule, ConsoleSignInModule, WorkerClientModule],
  controllers: [ConsoleEventsController, ConsoleWebhooksController, ConsoleDeliveriesController],
})
export class ConsoleWebhooksModule {}
