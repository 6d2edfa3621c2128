import {
  CreateWebhookInput,
  WebhookDeleteInput,
  WebhookListInput,
  WorkerAdminRpc,
  type WebhookEndpointView,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EndpointsService } from './endpoints.service';

@Controller()
export class EndpointsAdminController {
  constructor(private readonly endpoints: EndpointsService) {}

  @Handles(WorkerAdminRpc.webhookCreate)
  async create(@Payload() input: CreateWebhookInput) {
    // The CLI's reply is as it was: what it prints once.
    const { id, url, events, secret } = await this.endpoints.create(input);
    return { id, url, events, secret };
  }

  @Handles(WorkerAdminRpc.webhookDelete)
  async delete(@Payload() input: WebhookDeleteInput): Promise<WebhookEndpointView> {
    const { id, workspace_id, url, events, description, enabled, created_at } =
      await this.endpoints.delete(input.id);
    return {
      id,
      workspace_id,
      url,
      events,
      description,
      enabled,
      created_at: created_at.toISOString(),
    };
  }

  @Handles(WorkerAdminRpc.webhookList)
  list(@Payload() input: WebhookListInput) {
    return this.endpoints.list(input);
  }
}
