import { Module } from '@nestjs/common';
import { DeliveryModule } from '../delivery/delivery.module';
import { GatewayClientModule } from '../gateway-client/gateway-client.module';
import { EndpointsAdminController } from './endpoints.admin-controller';
import { EndpointsConsoleController } from './endpoints.console-controller';
import { EndpointsService } from './endpoints.service';
import { SigningSecretService } from './signing-secret.service';
import { SigningSecretRekeyer } from './signing-secrets';

/** Webhook endpoints and their signing secrets: the admin CLI's and the console's messages. */
@Module({
  imports: [DeliveryModule, GatewayClientModule],
  controllers: [EndpointsAdminController, EndpointsConsoleController],
  providers: [EndpointsService, SigningSecretService, SigningSecretRekeyer],
  exports: [EndpointsService],
})
export class WebhooksModule {}
