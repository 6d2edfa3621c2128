import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module';
import { AccessCache } from './access-cache';
import { AccessPublisher } from './access-publisher';
import { AccessStore } from './access-store';
import { AccessService } from './access.service';

/**
 * API keys as the rest of the gateway sees them: a raw key resolved to its access record
 * (checksum, shared Redis cache, Postgres), and every change to keys, plans or limits
 * published to that cache.
 */
@Module({
  imports: [RedisModule],
  providers: [AccessCache, AccessStore, AccessService, AccessPublisher],
  exports: [AccessCache, AccessStore, AccessService, AccessPublisher],
})
export class ApiKeysModule {}
