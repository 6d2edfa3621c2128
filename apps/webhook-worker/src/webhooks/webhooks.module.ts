import { Module } from '@nestjs/common';
import { EndpointsAdminController } from './endpoints.admin-controller';
import { EndpointEvents } from './endpoint-events';
import { EndpointsConsoleController } from './endpoints.console-controller';
import { EndpointsService } from './endpoints.service';
import { SigningSecretService } from './signing-secret.service';
import { SigningSecretRekeyer } from './signing-secrets';

/**
 * Webhook endpoints and their signing secrets: the admin CLI's and the console's messages.
 * Depends on no other feature; delivery depends on it (EndpointEvents for what it reacts to).
 */
@Module({
  controllers: [EndpointsAdminController, EndpointsConsoleController],
  providers: [EndpointsService, SigningSecretService, SigningSecretRekeyer, EndpointEvents],
  exports: [EndpointsService, EndpointEvents],
})
export class WebhooksModule {}
