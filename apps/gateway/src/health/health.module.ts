import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module';
import { GatewayHealth } from './gateway-health';
import { HealthController } from './health.controller';
import { OpsServer } from './ops-server';

@Module({
  imports: [RedisModule],
  controllers: [HealthController],
  providers: [GatewayHealth, OpsServer],
  exports: [OpsServer],
})
export class HealthModule {}
