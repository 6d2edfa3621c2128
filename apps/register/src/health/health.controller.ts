import { AmqpConnection, messagingHealth } from '@custodian/messaging';
import { postgresHealth } from '@custodian/observability';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly rabbitmq: AmqpConnection,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => messagingHealth(this.indicators, this.rabbitmq),
    ]);
  }
}
