import { Module } from '@nestjs/common';
import { KeyAdmission } from '../access/key-admission';
import { ApiKeysModule } from '../keys/api-keys.module';
import { RedisModule } from '../redis/redis.module';
import { AccessGate } from './access-gate';
import { AdmissionService } from './admission.service';
import { ClientAddressLimiter } from './client-address-limiter';
import { RequestCounts } from './request-counts';
import { UsageFlusher } from './usage-flusher';
import { UsageLedger } from './usage-ledger';

/**
 * Who may make a request, and how many: AdmissionService decides (key, plan gate, minute
 * window, monthly quota, per-address guard); the monthly counts are flushed to Postgres, and
 * what this process counted that Redis lost or never saw is kept in its ledger until then.
 * RequestCounts reads those counts back for the console's Plan and usage. AdmissionService is
 * also the front door's KeyAdmission (access/key-admission.ts).
 */
@Module({
  imports: [RedisModule, ApiKeysModule],
  providers: [
    AccessGate,
    ClientAddressLimiter,
    UsageLedger,
    UsageFlusher,
    AdmissionService,
    { provide: KeyAdmission, useExisting: AdmissionService },
    RequestCounts,
  ],
  exports: [AdmissionService, KeyAdmission, RequestCounts],
})
export class RateLimitsModule {}
