import {
  PING_EVENT,
  type DeliveriesInput,
  type DeliveryLogEntry,
  type EventData,
  type WebhookTestView,
} from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EndpointEvents } from '../webhooks/endpoint-events';
import { EndpointsService } from '../webhooks/endpoints.service';
import { DeliveryScheduler } from './delivery-scheduler';
import { deliveryOf, endpointDeliveryLog } from './delivery.store';
import { FanOut } from './fan-out';

/**
 * The deliveries of one endpoint: its Test ping and the CLI's log of it. Here, not in
 * webhooks/, because they are deliveries (fan-out, scheduler); webhooks/ knows nothing of
 * delivery.
 */
@Injectable()
export class EndpointDeliveries implements OnModuleInit {
  constructor(
    private readonly db: DataSource,
    private readonly endpoints: EndpointsService,
    private readonly fanOut: FanOut,
    private readonly scheduler: DeliveryScheduler,
    private readonly events: EndpointEvents,
  ) {}

  onModuleInit(): void {
    // An endpoint enabled again: its waiting deliveries may go now, not at the next poll.
    this.events.onEnabled(() => void this.scheduler.tick());
  }

  /**
   * A `ping` through the live delivery path (signing, retries, timeout, log), sent even to a
   * disabled endpoint: delivered, it enables one disabled for its failures (delivery-leases).
   */
  async test(id: string, workspace?: string): Promise<WebhookTestView> {
    const endpoint = await this.endpoints.endpoint(id, workspace);
    const eventId = newId('evt');
    await this.fanOut.store(
      {
        id: eventId,
        event: PING_EVENT,
        created_at: new Date().toISOString(),
        data: { endpoint: { id: endpoint.id, url: endpoint.url } } satisfies EventData<'ping'>,
        workspace_id: endpoint.workspace_id,
      },
      [endpoint.id],
    );
    const delivery = await deliveryOf(this.db, eventId, endpoint.id);
    return { delivery_id: delivery.id, event_id: eventId };
  }

  /** The endpoint's deliveries, newest first, each with its attempts. */
  async deliveries(input: DeliveriesInput): Promise<DeliveryLogEntry[]> {
    const limit = input.limit === undefined ? 20 : Number(input.limit);
    await this.endpoints.endpoint(input.endpoint);
    return endpointDeliveryLog(this.db, input.endpoint, limit);
  }
}
