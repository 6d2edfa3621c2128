import { AppliedRequestPruner, AppliedWrites } from '@custodian/messaging';
import { ActivityLog, ActivityRetentionJob, initializeWhenReachable } from '@custodian/persistence';
import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { DELIVERY_SCHEMA, workerDataSource } from './data-source';

@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [WorkerConfig],
      // Postgres down at start: the app waits for it instead of exiting (issue 31, item 9).
      useFactory: (config: WorkerConfig) =>
        initializeWhenReachable(
          () =>
            workerDataSource(
              config.DATABASE_URL,
              config.DATABASE_POOL_SIZE,
              config.DATABASE_STATEMENT_TIMEOUT_MS,
            ),
          (message) => new Logger('Database').warn(message),
        ),
    },
    { provide: ActivityLog, useValue: new ActivityLog(DELIVERY_SCHEMA) },
    // The console's endpoint writes, applied once per request (delivery.applied_requests).
    {
      provide: AppliedWrites,
      inject: [DataSource],
      useFactory: (db: DataSource) =>
        new AppliedWrites(db, DELIVERY_SCHEMA, undefined, 'The webhook worker'),
    },
    {
      provide: AppliedRequestPruner,
      inject: [DataSource],
      useFactory: (db: DataSource) => new AppliedRequestPruner(db, DELIVERY_SCHEMA),
    },
    // The feed's retention (ACTIVITY_RETENTION_DAYS): the table grew without end before.
    {
      provide: ActivityRetentionJob,
      inject: [DataSource, WorkerConfig],
      useFactory: (db: DataSource, config: WorkerConfig) =>
        new ActivityRetentionJob(db, DELIVERY_SCHEMA, config.ACTIVITY_RETENTION_DAYS, (message) =>
          new Logger('ActivityRetention').warn(message),
        ),
    },
  ],
  exports: [DataSource, ActivityLog, AppliedWrites],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  /**
   * Last: Nest calls onApplicationShutdown after every beforeApplicationShutdown, where the
   * scheduler and the event consumer finish their work (this module is global, so its own
   * hooks may run before theirs in any one phase).
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.db.isInitialized) await this.db.destroy();
  }
}
