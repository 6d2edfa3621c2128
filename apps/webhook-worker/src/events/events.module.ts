import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { FeedModule } from '../feed/feed.module';
import { DeadLetterWatch } from './dead-letter-watch';
import { EventConsumer } from './event-consumer';

/** The events queue: consumed in batches, appended to the change feed and fanned out; its dead letters watched. */
@Module({
  imports: [DeliveryModule, FeedModule],
  providers: [EventConsumer, DeadLetterWatch],
  exports: [DeadLetterWatch],
})
export class EventsModule {}
