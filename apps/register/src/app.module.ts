import { OutboxRelay } from '@custodian/messaging';
import { RpcDomainErrorFilter } from '@custodian/messaging';
import { loggerParams } from '@custodian/observability';
import { ContractValidationPipe } from '@custodian/validation';
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { AssetsModule } from './assets/assets.module';
import { CustomFieldsModule } from './custom-fields/custom-fields.module';
import { PeopleModule } from './people/people.module';
import { RegisterConfig } from './config/register-config';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { AdminRpcServerHandle, RpcServerHandle } from './rpc/rpc-server.handle';
import { MembersModule } from './members/members.module';

@Module({})
export class RegisterAppModule {
  static forConfig(config: RegisterConfig): DynamicModule {
    return {
      module: RegisterAppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams('register', config)),
        TerminusModule.forRoot({ logger: false }),
        DatabaseModule,
        AssetsModule,
        PeopleModule,
        CustomFieldsModule,
        MembersModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: RegisterConfig, useValue: config },
        {
          provide: OutboxRelay,
          inject: [DataSource],
          useFactory: (db: DataSource) =>
            new OutboxRelay(db, {
              url: config.RABBITMQ_URL,
              exchange: config.EVENTS_EXCHANGE,
              table: 'register.outbox',
              connectionName: `custodian-register-outbox-${config.EVENTS_EXCHANGE}`,
              intervalMs: config.OUTBOX_POLL_MS,
              log: (message) => new Logger('OutboxRelay').warn(message),
            }),
        },
        { provide: APP_FILTER, useValue: new RpcDomainErrorFilter('register') },
        // Every message is checked against its contract class before a handler sees it.
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
        RpcServerHandle,
        AdminRpcServerHandle,
      ],
      exports: [RegisterConfig, RpcServerHandle, AdminRpcServerHandle],
    };
  }
}
