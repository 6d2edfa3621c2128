import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { GatewayClientModule } from '../gateway-client/gateway-client.module';
import { DeadLetterWatch } from './dead-letter-watch';
import { EventConsumer } from './event-consumer';

/** The events queue: consumed in batches and fanned out; its dead letters watched. */
@Module({
  imports: [DeliveryModule, GatewayClientModule],
  providers: [EventConsumer, DeadLetterWatch],
  exports: [DeadLetterWatch],
})
export class EventsModule {}
