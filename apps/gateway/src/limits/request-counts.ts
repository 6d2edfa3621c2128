import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';
import type { KeyUsageEntity } from './key-usage.entity';
import { minuteWindow, usageMonth } from './windows';

/** What one key has used of the two request limits. */
export interface KeyRequestCounts {
  /** Requests counted this month against the quota. */
  month: number;
  /** Requests in the current minute window; null when Redis could not be asked. */
  minute: number | null;
}

/**
 * Reads, without counting anything, what the access gate counts (access-gate.script.ts): a
 * key's month counter (`floor` + `n`) and its minute window, in the same keys and windows.
 * The month is also read from Postgres and the higher count taken: both are lower bounds of
 * the true count, and Postgres holds it alone after Redis lost the counter or while Redis is
 * away (a flush interval behind, then).
 */
@Injectable()
export class RequestCounts {
  private readonly logger = new Logger('RequestCounts');

  constructor(
    private readonly redis: RedisConnection,
    private readonly db: DataSource,
  ) {}

  async of(keyIds: readonly string[], nowMs = Date.now()): Promise<Map<string, KeyRequestCounts>> {
    const counts = new Map<string, KeyRequestCounts>();
    if (keyIds.length === 0) return counts;
    const month = usageMonth(nowMs).id;
    const [persisted, live] = await Promise.all([
      this.persisted(keyIds, month),
      this.live(keyIds, month, String(minuteWindow(nowMs).id)),
    ]);
    keyIds.forEach((keyId, index) => {
      const inRedis = live?.[index];
      counts.set(keyId, {
        month: Math.max(persisted.get(keyId) ?? 0, inRedis?.month ?? 0),
        minute: inRedis ? inRedis.minute : null,
      });
    });
    return counts;
  }

  private async persisted(keyIds: readonly string[], month: string): Promise<Map<string, number>> {
    const rows = await this.db.query<Array<Pick<KeyUsageEntity, 'key_id' | 'requests'>>>(
      `SELECT key_id, requests FROM gateway.key_usage WHERE key_id = ANY($1) AND month = $2`,
      [keyIds, month],
    );
    return new Map(rows.map((row) => [row.key_id, Number(row.requests)]));
  }

  /** Null when Redis cannot be asked: the limits are not applied then either. */
  private async live(
    keyIds: readonly string[],
    month: string,
    window: string,
  ): Promise<Array<{ month: number; minute: number }> | null> {
    if (!this.redis.isReady()) return null;
    const reading = this.redis.client.pipeline();
    for (const keyId of keyIds) {
      reading.hmget(RedisKeys.monthUsage(keyId, month), 'floor', 'n');
      reading.get(RedisKeys.minuteWindow(keyId, window));
    }
    try {
      const replies = (await reading.exec()) ?? [];
      return keyIds.map((_keyId, index) => {
        const [counterError, counter] = replies[index * 2] ?? [new Error('no reply'), null];
        const [windowError, used] = replies[index * 2 + 1] ?? [new Error('no reply'), null];
        if (counterError) throw counterError;
        if (windowError) throw windowError;
        const [floor, added] = counter as Array<string | null>;
        return { month: Number(floor ?? 0) + Number(added ?? 0), minute: Number(used ?? 0) };
      });
    } catch (error) {
      this.logger.warn(`request counts read from Postgres only: ${(error as Error).message}`);
      return null;
    }
  }
}
