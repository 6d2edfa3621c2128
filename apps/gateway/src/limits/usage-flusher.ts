import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';

const BATCH = 500;

/**
 * Persists monthly request counts: every few seconds it takes the counters the access gate
 * marked dirty and upserts them into Postgres. Counts only ever grow (GREATEST), so several
 * gateways flushing the same key in any order agree. After a Redis flush or restart the gate
 * re-seeds from here, losing at most one interval of counts.
 */
@Injectable()
export class UsageFlusher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('UsageFlusher');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly db: DataSource,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Before the Redis and Postgres connections close (their hooks run after this one). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** One pass; concurrent calls share it. */
  flush(): Promise<void> {
    this.running ??= this.flushAll().finally(() => (this.running = null));
    return this.running;
  }

  private async flushAll(): Promise<void> {
    if (!this.redis.isReady()) return;
    try {
      for (;;) {
        const members = await this.redis.client.spop(RedisKeys.dirtyUsage, BATCH);
        if (members.length === 0) return;
        await this.persist(members).catch(async (error: unknown) => {
          // Put them back: the next pass tries again.
          await this.redis.client.sadd(RedisKeys.dirtyUsage, ...members);
          throw error;
        });
        if (members.length < BATCH) return;
      }
    } catch (error) {
      this.logger.warn(`usage flush failed: ${(error as Error).message}`);
    }
  }

  private async persist(members: string[]): Promise<void> {
    const changed = members.flatMap((member) => {
      const split = member.lastIndexOf(':');
      return split < 0 ? [] : [{ keyId: member.slice(0, split), month: member.slice(split + 1) }];
    });
    const counts = await this.redis.client.mget(
      changed.map(({ keyId, month }) => RedisKeys.monthUsage(keyId, month)),
    );
    const keyIds: string[] = [];
    const months: string[] = [];
    const requests: string[] = [];
    changed.forEach(({ keyId, month }, index) => {
      const count = counts[index];
      if (count === null || count === undefined) return;
      keyIds.push(keyId);
      months.push(month);
      requests.push(count);
    });
    if (keyIds.length === 0) return;
    await this.db.query(
      `INSERT INTO gateway.key_usage (key_id, month, requests)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (key_id, month) DO UPDATE
         SET requests = GREATEST(gateway.key_usage.requests, EXCLUDED.requests), updated_at = now()`,
      [keyIds, months, requests],
    );
  }
}
