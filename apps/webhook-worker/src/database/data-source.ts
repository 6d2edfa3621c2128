import { appliedRequestsEntity, outboxEntity, workspacePlansEntity } from '@custodian/messaging';
import { activityEntity, createAppDataSource } from '@custodian/persistence';
import type { DataSource } from 'typeorm';
import { CreateActivity1763960000000 } from './migrations/1763960000000-CreateActivity';
import { DeliveryAttemptEntity } from '../delivery/delivery-attempt.entity';
import { DeliveryEntity } from '../delivery/delivery.entity';
import { EndpointEntity } from '../webhooks/endpoint.entity';
import { CreateDeliveries1763770000000 } from './migrations/1763770000000-CreateDeliveries';
import { CreateDeliveryLog1763810000000 } from './migrations/1763810000000-CreateDeliveryLog';
import { IndexFinishedDeliveries1763820000000 } from './migrations/1763820000000-IndexFinishedDeliveries';
import { IndexDueDeliveriesByEndpoint1763830000000 } from './migrations/1763830000000-IndexDueDeliveriesByEndpoint';
import { EncryptEndpointSecrets1763850000000 } from './migrations/1763850000000-EncryptEndpointSecrets';
import { EndpointConsoleState1763900000000 } from './migrations/1763900000000-EndpointConsoleState';
import { DeliveryChainsAndHeaders1763900100000 } from './migrations/1763900100000-DeliveryChainsAndHeaders';
import { DeliveryContext1763980000000 } from './migrations/1763980000000-DeliveryContext';
import { WorkspacePlans1764000000000 } from './migrations/1764000000000-WorkspacePlans';
import { BoundedFanOut1764100000000 } from './migrations/1764100000000-BoundedFanOut';
import { EventPayloadEntity } from '../delivery/event-payload.entity';
import { AppliedRequests1764200000000 } from './migrations/1764200000000-AppliedRequests';
import { CreateEventFeed1764580000000 } from './migrations/1764580000000-CreateEventFeed';
import { EventFeedEntity, EventFeedHorizonEntity } from '../feed/event-feed.entity';
import { WorkerOutbox1764610000000 } from './migrations/1764610000000-WorkerOutbox';

export const DELIVERY_SCHEMA = 'delivery';

/** `statementTimeoutMs` for the serving pool (DATABASE_STATEMENT_TIMEOUT_MS). */
export function workerDataSource(
  url: string,
  poolSize?: number,
  statementTimeoutMs?: number,
): DataSource {
  return createAppDataSource({
    statementTimeoutMs,
    url,
    schema: DELIVERY_SCHEMA,
    migrations: [
      CreateDeliveries1763770000000,
      CreateDeliveryLog1763810000000,
      IndexFinishedDeliveries1763820000000,
      IndexDueDeliveriesByEndpoint1763830000000,
      EncryptEndpointSecrets1763850000000,
      EndpointConsoleState1763900000000,
      DeliveryChainsAndHeaders1763900100000,
      CreateActivity1763960000000,
      DeliveryContext1763980000000,
      WorkspacePlans1764000000000,
      BoundedFanOut1764100000000,
      AppliedRequests1764200000000,
      CreateEventFeed1764580000000,
      WorkerOutbox1764610000000,
    ],
    entities: [
      EndpointEntity,
      DeliveryEntity,
      EventPayloadEntity,
      DeliveryAttemptEntity,
      activityEntity(DELIVERY_SCHEMA),
      workspacePlansEntity(DELIVERY_SCHEMA),
      appliedRequestsEntity(DELIVERY_SCHEMA),
      EventFeedEntity,
      EventFeedHorizonEntity,
      outboxEntity(DELIVERY_SCHEMA),
    ],
    applicationName: 'custodian-webhook-worker',
    poolSize,
  });
}
