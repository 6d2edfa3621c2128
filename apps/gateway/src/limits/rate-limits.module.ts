import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../keys/api-keys.module';
import { RedisModule } from '../redis/redis.module';
import { AccessGate } from './access-gate';
import { AdmissionService } from './admission.service';
import { ClientAddressLimiter } from './client-address-limiter';
import { UsageFlusher } from './usage-flusher';
import { UsageLedger } from './usage-ledger';

/**
 * Who may make a request, and how many: AdmissionService decides (key, plan gate, minute
 * window, monthly quota, per-address guard); the monthly counts are flushed to Postgres, and
 * what this process counted that Redis lost or never saw is kept in its ledger until then.
 */
@Module({
  imports: [RedisModule, ApiKeysModule],
  providers: [AccessGate, ClientAddressLimiter, UsageLedger, UsageFlusher, AdmissionService],
  exports: [AdmissionService],
})
export class RateLimitsModule {}
