import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../keys/api-keys.module';
import { RedisModule } from '../redis/redis.module';
import { AccessGate } from './access-gate';
import { AdmissionService } from './admission.service';
import { ClientAddressLimiter } from './client-address-limiter';
import { UsageFlusher } from './usage-flusher';

/**
 * Who may make a request, and how many: AdmissionService decides (key, plan gate, minute
 * window, monthly quota, per-address guard); the monthly counts are flushed to Postgres.
 */
@Module({
  imports: [RedisModule, ApiKeysModule],
  providers: [AccessGate, ClientAddressLimiter, UsageFlusher, AdmissionService],
  exports: [AdmissionService],
})
export class RateLimitsModule {}
