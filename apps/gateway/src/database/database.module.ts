import { AppliedRequestPruner, AppliedWrites } from '@custodian/messaging';
import { ActivityLog, ActivityRetentionJob, initializeWhenReachable } from '@custodian/persistence';
import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { GATEWAY_SCHEMA, gatewayDataSource } from './data-source';

@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [GatewayConfig],
      // Postgres down at start: the app waits for it instead of exiting (issue 31, item 9).
      useFactory: (config: GatewayConfig) =>
        initializeWhenReachable(
          () =>
            gatewayDataSource(
              config.DATABASE_URL,
              config.DATABASE_POOL_SIZE,
              config.DATABASE_STATEMENT_TIMEOUT_MS,
            ),
          (message) => new Logger('Database').warn(message),
        ),
    },
    { provide: ActivityLog, useValue: new ActivityLog(GATEWAY_SCHEMA) },
    // API keys created from the console with an Idempotency-Key (gateway.applied_requests).
    {
      provide: AppliedWrites,
      inject: [DataSource],
      useFactory: (db: DataSource) =>
        new AppliedWrites(db, GATEWAY_SCHEMA, undefined, 'The gateway'),
    },
    {
      provide: AppliedRequestPruner,
      inject: [DataSource],
      useFactory: (db: DataSource) => new AppliedRequestPruner(db, GATEWAY_SCHEMA),
    },
    // The feed's retention (ACTIVITY_RETENTION_DAYS): the table grew without end before.
    {
      provide: ActivityRetentionJob,
      inject: [DataSource, GatewayConfig],
      useFactory: (db: DataSource, config: GatewayConfig) =>
        new ActivityRetentionJob(db, GATEWAY_SCHEMA, config.ACTIVITY_RETENTION_DAYS, (message) =>
          new Logger('ActivityRetention').warn(message),
        ),
    },
  ],
  exports: [DataSource, ActivityLog, AppliedWrites],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.db.isInitialized) await this.db.destroy();
  }
}
