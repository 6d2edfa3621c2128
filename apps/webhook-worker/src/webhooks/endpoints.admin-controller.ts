import {
  CreateWebhookInput,
  DeliveriesInput,
  WebhookListInput,
  WebhookTestInput,
  WorkerAdminRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { WORKER_ADMIN_TRANSPORT } from '../admin/admin-rpc-server.handle';
import { EndpointsService } from './endpoints.service';

@Controller()
export class EndpointsAdminController {
  constructor(private readonly endpoints: EndpointsService) {}

  @Handles(WorkerAdminRpc.webhookCreate, WORKER_ADMIN_TRANSPORT)
  create(@Payload() input: CreateWebhookInput) {
    return this.endpoints.create(input);
  }

  @Handles(WorkerAdminRpc.webhookList, WORKER_ADMIN_TRANSPORT)
  list(@Payload() input: WebhookListInput) {
    return this.endpoints.list(input);
  }

  @Handles(WorkerAdminRpc.webhookTest, WORKER_ADMIN_TRANSPORT)
  test(@Payload() input: WebhookTestInput) {
    return this.endpoints.test(input);
  }

  @Handles(WorkerAdminRpc.deliveries, WORKER_ADMIN_TRANSPORT)
  deliveries(@Payload() input: DeliveriesInput) {
    return this.endpoints.deliveries(input);
  }
}
