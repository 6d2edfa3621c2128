import { ActivityLog } from '@custodian/persistence';
import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { GATEWAY_SCHEMA, gatewayDataSource } from './data-source';

@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [GatewayConfig],
      useFactory: (config: GatewayConfig) =>
        gatewayDataSource(
          config.DATABASE_URL,
          config.DATABASE_POOL_SIZE,
          config.DATABASE_STATEMENT_TIMEOUT_MS,
        ).initialize(),
    },
    { provide: ActivityLog, useValue: new ActivityLog(GATEWAY_SCHEMA) },
  ],
  exports: [DataSource, ActivityLog],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.db.isInitialized) await this.db.destroy();
  }
}
