import { OutboxRelay } from '@custodian/messaging';
import { ContractValidationPipe, loggerParams } from '@custodian/runtime';
import { APP_PIPE } from '@nestjs/core';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AccessCache } from './keys/access-cache';
import { AccessPublisher } from './keys/access-publisher';
import { AccessStore } from './keys/access-store';
import { AccessHook } from './access/access-hook';
import { AccessGuard } from './access/access.guard';
import { AccessService } from './keys/access.service';
import { AccessGate } from './limits/access-gate';
import { ClientAddressLimiter } from './limits/client-address-limiter';
import { UsageFlusher } from './limits/usage-flusher';
import { GatewayEvents } from './outbox/gateway-events';
import { AdminRpcController } from './admin/admin.rpc-controller';
import { AssetsController } from './assets/assets.controller';
import { GatewayConfig } from './config/gateway-config';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { KeysService } from './keys/keys.service';
import { InvitationsController, MembersController } from './members/members.controller';
import { PeopleController } from './people/people.controller';
import {
  DocsController,
  OpenApiController,
  OpenApiDocumentStore,
} from './openapi/openapi.controller';
import { PingController } from './ping/ping.controller';
import { RedisConnection } from './redis/redis.provider';
import { RegisterAdminClient } from './register-client/register-admin-client';
import { RegisterClient } from './register-client/register-client';
import { WorkspacesService } from './workspaces/workspaces.service';

@Module({})
export class GatewayAppModule {
  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayAppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams('gateway', config)),
        TerminusModule.forRoot({ logger: false }),
        DatabaseModule,
      ],
      controllers: [
        PingController,
        AssetsController,
        PeopleController,
        MembersController,
        InvitationsController,
        AdminRpcController,
        HealthController,
        OpenApiController,
        DocsController,
      ],
      providers: [
        { provide: GatewayConfig, useValue: config },
        // HTTP bodies and admin messages are checked against their contract classes.
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
        {
          provide: OutboxRelay,
          inject: [DataSource],
          useFactory: (db: DataSource) =>
            new OutboxRelay(db, {
              url: config.RABBITMQ_URL,
              exchange: config.EVENTS_EXCHANGE,
              table: 'gateway.outbox',
              connectionName: `custodian-gateway-outbox-${config.EVENTS_EXCHANGE}`,
              intervalMs: config.OUTBOX_POLL_MS,
              log: (message) => new Logger('OutboxRelay').warn(message),
            }),
        },
        RedisConnection,
        RegisterClient,
        RegisterAdminClient,
        AccessCache,
        AccessStore,
        AccessService,
        AccessGuard,
        AccessHook,
        AccessPublisher,
        AccessGate,
        ClientAddressLimiter,
        UsageFlusher,
        GatewayEvents,
        WorkspacesService,
        KeysService,
        OpenApiDocumentStore,
      ],
      exports: [GatewayConfig],
    };
  }
}
