import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EndpointDeliveries } from './endpoint-deliveries';
import { EndpointDeliveriesController } from './endpoint-deliveries.controller';
import { DeliveryPruner } from './delivery-pruner';
import { DeliveryScheduler } from './delivery-scheduler';
import { FanOut } from './fan-out';

/**
 * Deliveries: fan-out stores them, the scheduler claims, signs, sends and records them, the
 * pruner deletes finished ones past their retention. At shutdown Nest runs the hooks of the
 * modules that import this one first (the reverse of init), so the event consumer's last batch
 * is stored before the scheduler stops; a tick asked for after that claims nothing, and the
 * rows wait for the next start.
 */
@Module({
  imports: [WebhooksModule],
  controllers: [EndpointDeliveriesController],
  providers: [DeliveryScheduler, FanOut, DeliveryPruner, EndpointDeliveries],
  exports: [DeliveryScheduler, FanOut],
})
export class DeliveryModule {}
