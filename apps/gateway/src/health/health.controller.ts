import { connectionHealth, postgresHealth } from '@custodian/runtime';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { RedisConnection } from '../redis/redis.provider';
import { RegisterClient } from '../register-client/register-client';
import { Public } from '../access/public.decorator';

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly redis: RedisConnection,
    private readonly register: RegisterClient,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => connectionHealth(this.indicators, 'redis', this.redis.isReady()),
      () => connectionHealth(this.indicators, 'rabbitmq', this.register.rpc.isConnected()),
    ]);
  }
}
