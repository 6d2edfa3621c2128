import { connectionHealth, postgresHealth } from '@custodian/runtime';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { EventConsumer } from '../events/event-consumer';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly events: EventConsumer,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => connectionHealth(this.indicators, 'rabbitmq', this.events.isConnected()),
    ]);
  }
}
