import {
  MessagingModule,
  OutboxModule,
  PlanFactsModule,
  RpcDomainErrorFilter,
  declareEndpointDisabledQueue,
} from '@custodian/messaging';
import { OpsController, loggerParams } from '@custodian/observability';
import { ContractValidationPipe } from '@custodian/validation';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { WorkerConfig } from './config/worker-config';
import { DELIVERY_SCHEMA } from './database/data-source';
import { DatabaseModule } from './database/database.module';
import { DeliveryModule } from './delivery/delivery.module';
import { DeliveryLogModule } from './delivery-log/delivery-log.module';
import { EventsModule } from './events/events.module';
import { FeedModule } from './feed/feed.module';
import { HealthController } from './health/health.controller';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class WorkerAppModule {
  static forConfig(config: WorkerConfig): DynamicModule {
    return {
      module: WorkerAppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams('webhook-worker', config)),
        TerminusModule.forRoot({ logger: false }),
        DatabaseModule,
        MessagingModule.forRoot({
          url: config.RABBITMQ_URL,
          connectionName: 'custodian-webhook-worker',
          servers: [{ queue: config.WORKER_ADMIN_QUEUE, prefetch: 8 }],
        }),
        // The worker's copy of the gateway's plan facts (API access), ADR 0019.
        PlanFactsModule.forRoot({
          schema: DELIVERY_SCHEMA,
          exchange: config.EVENTS_EXCHANGE,
          reader: 'webhook-worker',
        }),
        // The worker's outbox: notices of endpoints it disabled (internal.endpoint.disabled).
        // The relay declares the register's queue of them, so none is lost before its start.
        OutboxModule.forRoot({
          schema: DELIVERY_SCHEMA,
          exchange: config.EVENTS_EXCHANGE,
          intervalMs: config.OUTBOX_POLL_MS,
          listen: config.OUTBOX_LISTEN === 'on',
          retentionMs: config.OUTBOX_RETENTION_HOURS * 3_600_000,
          topology: declareEndpointDisabledQueue,
        }),
        // The feature modules; HealthController reads EventsModule's dead-letter watch.
        DeliveryModule,
        WebhooksModule,
        DeliveryLogModule,
        EventsModule,
        FeedModule,
      ],
      controllers: [HealthController, OpsController],
      providers: [
        { provide: WorkerConfig, useValue: config },
        { provide: APP_FILTER, useValue: new RpcDomainErrorFilter('webhook-worker') },
        // Every admin message is checked against its contract class before a handler sees it.
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
      ],
      exports: [WorkerConfig],
    };
  }
}
