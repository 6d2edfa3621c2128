import { connectionHealth, postgresHealth } from '@custodian/observability';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { RpcServerHandle } from '../rpc/rpc-server.handle';

@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: DataSource,
    private readonly rpc: RpcServerHandle,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([
      () => postgresHealth(this.indicators, this.db),
      () => connectionHealth(this.indicators, 'rabbitmq', this.rpc.server.isConnected()),
    ]);
  }
}
