import { OutboxRelay } from '@custodian/messaging';
import { Logger, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { GatewayEvents } from './gateway-events';

/** The gateway's events (plan changes, quota reached): outbox rows and the relay that sends them. */
@Module({
  providers: [
    GatewayEvents,
    {
      provide: OutboxRelay,
      inject: [DataSource, GatewayConfig],
      useFactory: (db: DataSource, config: GatewayConfig) =>
        new OutboxRelay(db, {
          url: config.RABBITMQ_URL,
          exchange: config.EVENTS_EXCHANGE,
          table: 'gateway.outbox',
          connectionName: `custodian-gateway-outbox-${config.EVENTS_EXCHANGE}`,
          intervalMs: config.OUTBOX_POLL_MS,
          log: (message) => new Logger('OutboxRelay').warn(message),
        }),
    },
  ],
  exports: [GatewayEvents],
})
export class OutboxModule {}
