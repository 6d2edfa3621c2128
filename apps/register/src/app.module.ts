import { heavyLaneOf } from '@custodian/contracts';
import {
  MessagingModule,
  OutboxModule,
  PlanFactsModule,
  RpcDomainErrorFilter,
} from '@custodian/messaging';
import { OpsController, loggerParams } from '@custodian/observability';
import { ContractValidationPipe } from '@custodian/validation';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { ActivityModule } from './activity/activity.module';
import { AssetRequestsModule } from './asset-requests/asset-requests.module';
import { AssetsModule } from './assets/assets.module';
import { AuditsModule } from './audits/audits.module';
import { ExportsModule } from './exports/exports.module';
import { ImportsModule } from './imports/imports.module';
import { CountersModule } from './counters/counters.module';
import { CustomFieldsModule } from './custom-fields/custom-fields.module';
import { PeopleModule } from './people/people.module';
import { BookingsModule } from './bookings/bookings.module';
import { LicensesModule } from './licenses/licenses.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { NoticesModule } from './notices/notices.module';
import { EndpointHealthModule } from './endpoint-health/endpoint-health.module';
import { RemindersModule } from './reminders/reminders.module';
import { LocationsModule } from './locations/locations.module';
import { CategoriesModule } from './categories/categories.module';
import { CalendarModule } from './calendar/calendar.module';
import { RegisterConfig } from './config/register-config';
import { DatabaseModule } from './database/database.module';
import { DueDatesModule } from './due-dates/due-dates.module';
import { REGISTER_SCHEMA } from './database/data-source';
import { HealthController } from './health/health.controller';
import { MailModule } from './mail/mail.module';
import { MembersModule } from './members/members.module';
import { RequestsModule } from './requests/requests.module';
import { REGISTER_ADMIN_TRANSPORT, REGISTER_RPC_TRANSPORT } from './rpc/transports';
import { SignInModule } from './sign-in/sign-in.module';

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
        MessagingModule.forRoot({
          url: config.RABBITMQ_URL,
          connectionName: 'custodian-register',
          servers: [
            {
              queue: config.REGISTER_QUEUE,
              prefetch: config.RPC_PREFETCH,
              transport: REGISTER_RPC_TRANSPORT,
            },
            // The same handlers on the heavy lane, where the gateway sends lists and searches,
            // so that a crowd of them never stands ahead of a fetch or a write in the queue.
            {
              queue: heavyLaneOf(config.REGISTER_QUEUE),
              prefetch: config.RPC_PREFETCH,
              transport: REGISTER_RPC_TRANSPORT,
            },
            {
              queue: config.REGISTER_ADMIN_QUEUE,
              prefetch: 8,
              transport: REGISTER_ADMIN_TRANSPORT,
            },
            // The admin queue's heavy lane: password checks and hashes (argon2id, 19 MiB each),
            // PASSWORD_CONCURRENCY at a time, so a burst of sign-ins never holds the prefetch
            // that answers every console request's role check.
            {
              queue: heavyLaneOf(config.REGISTER_ADMIN_QUEUE),
              prefetch: config.PASSWORD_CONCURRENCY,
              transport: REGISTER_ADMIN_TRANSPORT,
            },
          ],
        }),
        OutboxModule.forRoot({
          schema: REGISTER_SCHEMA,
          exchange: config.EVENTS_EXCHANGE,
          intervalMs: config.OUTBOX_POLL_MS,
          listen: config.OUTBOX_LISTEN === 'on',
          retentionMs: config.OUTBOX_RETENTION_HOURS * 3_600_000,
        }),
        PlanFactsModule.forRoot({
          schema: REGISTER_SCHEMA,
          exchange: config.EVENTS_EXCHANGE,
          reader: 'register',
        }),
        RequestsModule,
        MailModule,
        DueDatesModule,
        AssetsModule,
        PeopleModule,
        BookingsModule,
        AssetRequestsModule,
        LicensesModule,
        MaintenanceModule,
        NoticesModule,
        EndpointHealthModule,
        RemindersModule,
        LocationsModule,
        CategoriesModule,
        AuditsModule,
        ExportsModule,
        ImportsModule,
        CalendarModule,
        CustomFieldsModule,
        MembersModule,
        SignInModule,
        ActivityModule,
        CountersModule,
      ],
      controllers: [HealthController, OpsController],
      providers: [
        { provide: RegisterConfig, useValue: config },
        { provide: APP_FILTER, useValue: new RpcDomainErrorFilter('register') },
        // Every message is checked against its contract class before a handler sees it.
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
      ],
      exports: [RegisterConfig],
    };
  }
}
