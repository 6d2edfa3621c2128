import { MessagingModule, RpcDomainErrorFilter } from '@custodian/messaging';
import { OpsController, loggerParams } from '@custodian/observability';
import { ContractValidationPipe } from '@custodian/validation';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { WorkerConfig } from './config/worker-config';
import { DatabaseModule } from './database/database.module';
import { DeliveryPruner } from './delivery/delivery-pruner';
import { DeliveryScheduler } from './delivery/delivery-scheduler';
import { FanOut } from './delivery/fan-out';
import { DeliveryLogConsoleController } from './delivery-log/delivery-log.console-controller';
import { DeliveryLogService } from './delivery-log/delivery-log.service';
import { DeadLetterWatch } from './events/dead-letter-watch';
import { EventConsumer } from './events/event-consumer';
import { GatewayClient } from './gateway-client/gateway-client';
import { HealthController } from './health/health.controller';
import { EndpointsAdminController } from './webhooks/endpoints.admin-controller';
import { EndpointsConsoleController } from './webhooks/endpoints.console-controller';
import { EndpointsService } from './webhooks/endpoints.service';
import { SigningSecretService } from './webhooks/signing-secret.service';
import { SigningSecretRekeyer } from './webhooks/signing-secrets';

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
      ],
      controllers: [
        HealthController,
        OpsController,
        EndpointsAdminController,
        EndpointsConsoleController,
        DeliveryLogConsoleController,
      ],
      providers: [
        { provide: WorkerConfig, useValue: config },
        { provide: APP_FILTER, useValue: new RpcDomainErrorFilter('webhook-worker') },
        // Every admin message is checked against its contract class before a handler sees it.
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
        GatewayClient,
        FanOut,
        EventConsumer,
        DeadLetterWatch,
        EndpointsService,
        SigningSecretService,
        DeliveryLogService,
        DeliveryScheduler,
        DeliveryPruner,
        SigningSecretRekeyer,
      ],
      exports: [WorkerConfig],
    };
  }
}
