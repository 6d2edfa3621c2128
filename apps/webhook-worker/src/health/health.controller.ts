import { AmqpConnection, messagingHealth } from '@custodian/messaging';
import { postgresHealth } from '@custodian/observability';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { DeadLetterWatch } from '../events/dead-letter-watch';

/**
 * 200 when Postgres and RabbitMQ (the connection, the events consumer, the admin queue's
 * consumer: endpoints, Test ping, delivery log) are up; 503 naming what is down. Also reports
 * how many events wait in the dead-letter queue (`dead_letters.count`, checked every 30 s).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly rabbitmq: AmqpConnection,
    private readonly deadLetters: DeadLetterWatch,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => messagingHealth(this.indicators, this.rabbitmq),
      // Informational: events that need a person's look do not make the worker unhealthy.
      () => this.indicators.check('dead_letters').up({ count: this.deadLetters.count }),
    ]);
  }
}
