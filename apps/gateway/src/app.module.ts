import { MessagingModule, OutboxModule, declareAllPlanFactsQueues } from '@custodian/messaging';
import { loggerParams } from '@custodian/observability';
import { ContractValidationPipe } from '@custodian/validation';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { AccessModule } from './access/access.module';
import { AdminModule } from './admin/admin.module';
import { AssetsModule } from './assets/assets.module';
import { ConsoleModule } from './console/console.module';
import { GatewayConfigModule } from './config/gateway-config.module';
import type { GatewayConfig } from './config/gateway-config';
import { GATEWAY_SCHEMA } from './database/data-source';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { EntityTagInterceptor } from './http/entity-tags';
import { InvitationsModule } from './invitations/invitations.module';
import { RateLimitsModule } from './limits/rate-limits.module';
import { MembersModule } from './members/members.module';
import { OpenApiModule } from './openapi/openapi.module';
import { PeopleModule } from './people/people.module';
import { BookingsModule } from './bookings/bookings.module';
import { AssetRequestsModule } from './asset-requests/asset-requests.module';
import { LicensesModule } from './licenses/licenses.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { NoticesModule } from './notices/notices.module';
import { RemindersModule } from './reminders/reminders.module';
import { LocationsModule } from './locations/locations.module';
import { CategoriesModule } from './categories/categories.module';
import { AuditsModule } from './audits/audits.module';
import { EventsModule } from './events/events.module';
import { ImportsModule } from './imports/imports.module';
import { CalendarFeedModule } from './calendar/calendar-feed.module';
import { PingModule } from './ping/ping.module';

/** The gateway: one feature module per job, wired here and nowhere else. */
@Module({})
export class GatewayAppModule {
  static forConfig(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [
        GatewayConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams('gateway', config, 'http')),
        TerminusModule.forRoot({ logger: false }),
        DatabaseModule,
        MessagingModule.forRoot({
          url: config.RABBITMQ_URL,
          connectionName: 'custodian-gateway',
          servers: [{ queue: config.ADMIN_QUEUE, prefetch: 16 }],
        }),
        OutboxModule.forRoot({
          schema: GATEWAY_SCHEMA,
          exchange: config.EVENTS_EXCHANGE,
          intervalMs: config.OUTBOX_POLL_MS,
          listen: config.OUTBOX_LISTEN === 'on',
          retentionMs: config.OUTBOX_RETENTION_HOURS * 3_600_000,
          // Plan facts may be stated before a reader's first start: its queue keeps them.
          topology: declareAllPlanFactsQueues,
        }),
        AccessModule.admittingWith(RateLimitsModule),
        PingModule,
        AssetsModule,
        PeopleModule,
        LocationsModule,
        CategoriesModule,
        BookingsModule,
        AssetRequestsModule,
        LicensesModule,
        MaintenanceModule,
        NoticesModule,
        RemindersModule,
        AuditsModule,
        EventsModule,
        ImportsModule,
        MembersModule,
        InvitationsModule,
        CalendarFeedModule,
        AdminModule,
        ConsoleModule,
        HealthModule,
        OpenApiModule,
      ],
      // HTTP bodies and admin messages are checked against their contract classes.
      providers: [
        { provide: APP_PIPE, useValue: new ContractValidationPipe() },
        // ETag on every record answered, 304 for a GET whose If-None-Match names it.
        { provide: APP_INTERCEPTOR, useClass: EntityTagInterceptor },
      ],
    };
  }
}
