import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { workerDataSource } from './data-source';

@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [WorkerConfig],
      useFactory: (config: WorkerConfig) =>
        workerDataSource(config.DATABASE_URL, config.DATABASE_POOL_SIZE).initialize(),
    },
  ],
  exports: [DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.db.isInitialized) await this.db.destroy();
  }
}
