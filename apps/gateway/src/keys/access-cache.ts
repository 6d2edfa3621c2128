import { Inject, Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';
import type { AccessRecord } from '../access/access-record';

/**
 * Resolved keys in Redis, shared by every gateway instance. Fills use SET NX and every change
 * (revocation, plan, limits) overwrites with SET, so a fill that read Postgres before a change
 * can never put the old record back after it.
 */
@Injectable()
export class AccessCache {
  readonly ttl: number;

  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.ttl = config.KEY_CACHE_TTL_SECONDS;
  }

  /** The cached record, `null` on a miss, `undefined` when Redis could not be asked. */
  async get(keyHash: string): Promise<AccessRecord | null | undefined> {
    try {
      const raw = await this.redis.client.get(RedisKeys.accessRecord(keyHash));
      return raw === null ? null : (JSON.parse(raw) as AccessRecord);
    } catch {
      return undefined;
    }
  }

  async fill(keyHash: string, record: AccessRecord): Promise<void> {
    await this.redis.client
      .set(RedisKeys.accessRecord(keyHash), JSON.stringify(record), 'EX', this.ttl, 'NX')
      .catch(() => undefined);
  }

  /** Overwrites entries after a change. Throws if Redis is unreachable: the change must land. */
  async overwrite(entries: Array<[keyHash: string, record: AccessRecord]>): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.client.multi();
    for (const [keyHash, record] of entries) {
      pipeline.set(RedisKeys.accessRecord(keyHash), JSON.stringify(record), 'EX', this.ttl);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw failed?.[0] ?? new Error('Redis transaction failed');
  }
}
