import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { DeadLetterWatch } from './dead-letter-watch';
import { EventConsumer } from './event-consumer';

/** The events queue: consumed in batches and fanned out; its dead letters watched. */
@Module({
  imports: [DeliveryModule],
  providers: [EventConsumer, DeadLetterWatch],
  exports: [DeadLetterWatch],
})
export class EventsModule {}
