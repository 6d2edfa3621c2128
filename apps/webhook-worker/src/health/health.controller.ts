import { connectionHealth, postgresHealth } from '@custodian/observability';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AdminRpcServerHandle } from '../admin/admin-rpc-server.handle';
import { EventConsumer } from '../events/event-consumer';

/**
 * 200 when Postgres, the events consumer (`rabbitmq`) and the admin queue's consumer
 * (`rabbitmq_admin`: endpoints, Test ping, delivery log) are all up; 503 naming what is down.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly events: EventConsumer,
    private readonly admin: AdminRpcServerHandle,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => connectionHealth(this.indicators, 'rabbitmq', this.events.isConnected()),
      () => connectionHealth(this.indicators, 'rabbitmq_admin', this.admin.server.isConnected()),
    ]);
  }
}
