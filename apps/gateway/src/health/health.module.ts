import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { HealthController } from './health.controller';

@Module({ imports: [RedisModule, RegisterClientModule], controllers: [HealthController] })
export class HealthModule {}
