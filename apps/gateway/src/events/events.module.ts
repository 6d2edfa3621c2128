import { Module } from '@nestjs/common';
import { WorkerClientModule } from '../worker-client/worker-client.module';
import { EventsController } from './events.controller';

/** The public API's change feed (GET /api/v1/events), kept by the webhook-worker. */
@Module({
  imports: [WorkerClientModule],
  controllers: [EventsController],
})
export class EventsModule {}
