import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DeliveryLogConsoleController } from './delivery-log.console-controller';
import { DeliveryLogService } from './delivery-log.service';

/** The console's delivery log: search, detail and resend. */
@Module({
  imports: [DeliveryModule, WebhooksModule],
  controllers: [DeliveryLogConsoleController],
  providers: [DeliveryLogService],
})
export class DeliveryLogModule {}
