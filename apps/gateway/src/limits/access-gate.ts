import { DomainError } from '@custodian/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Result } from 'ioredis';
import type { AccessRecord } from '../access/access-record';
import { AccessStore } from '../keys/access-store';
import { AccessService } from '../keys/access.service';
import { GatewayConfig } from '../config/gateway-config';
import { hashApiKey, isWellFormedApiKey } from '../keys/api-key-format';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys, scriptStems } from '../redis/redis-keys';
import { ACCESS_GATE_SCRIPT } from './access-gate.script';
import type { LimitState } from './limit-headers';
import { minuteWindow, usageMonth } from './windows';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    accessGate(
      recordKey: string,
      monthStem: string,
      window: string,
      month: string,
      counts: '0' | '1',
      windowTtl: string,
      windowStem: string,
      dirtySet: string,
    ): Result<Array<string | number>, Context>;
  }
}

export type GateVerdict = 'admitted' | 'rate_limited' | 'quota_exceeded';

export interface GateDecision {
  verdict: GateVerdict;
  record: AccessRecord;
  /** Null when Redis could not be asked: limits fail open, nothing is counted. */
  limits: LimitState | null;
  /** True on the request that used the last unit of the monthly quota. */
  quotaReached: boolean;
}

const WINDOW_TTL_SECONDS = 120;
/** Month counters outlive their month a little, so a late flush still finds them. */
const MONTH_COUNTER_GRACE_SECONDS = 7 * 86_400;

/**
 * Authenticates a key and applies both limits. Warm path: one Redis round trip, no Postgres.
 * Cold path (first use, after a flush or restart, new month): the record and the month's
 * count are loaded from Postgres, seeded with SET NX, and the script runs again.
 */
@Injectable()
export class AccessGate {
  private readonly logger = new Logger('AccessGate');
  private readonly stems: ReturnType<typeof scriptStems>;

  constructor(
    private readonly redis: RedisConnection,
    private readonly store: AccessStore,
    private readonly access: AccessService,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.stems = scriptStems(config.REDIS_PREFIX);
    this.redis.client.defineCommand('accessGate', { numberOfKeys: 1, lua: ACCESS_GATE_SCRIPT });
  }

  /**
   * Throws 'unauthenticated' for a malformed, unknown or revoked key; otherwise decides.
   * `countsTowardQuota` is false for /ping.
   */
  async admit(
    rawKey: string,
    countsTowardQuota: boolean,
    beforeColdLookup: () => Promise<void> = () => Promise.resolve(),
  ): Promise<GateDecision> {
    if (!isWellFormedApiKey(rawKey)) {
      throw new DomainError('unauthenticated', 'API key is malformed');
    }
    if (!this.redis.isReady()) return this.failOpen(rawKey);
    const keyHash = hashApiKey(rawKey);
    const now = Date.now();
    try {
      let reply = await this.runScript(keyHash, now, countsTowardQuota);
      if (reply[0] === 'miss') {
        await beforeColdLookup();
        await this.seed(keyHash, now);
        reply = await this.runScript(keyHash, now, countsTowardQuota);
        if (reply[0] === 'miss') return this.failOpen(rawKey);
      }
      return this.decide(reply, now, countsTowardQuota);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      // A failed EVALSHA/MULTI: Redis is unreachable or too slow (100 ms timeout).
      this.logger.warn(`limits not applied, Redis failed: ${(error as Error).message}`);
      return this.failOpen(rawKey);
    }
  }

  private runScript(keyHash: string, now: number, counts: boolean) {
    return this.redis.client.accessGate(
      RedisKeys.accessRecord(keyHash),
      this.stems.monthUsage,
      String(minuteWindow(now).id),
      usageMonth(now).id,
      counts ? '1' : '0',
      String(WINDOW_TTL_SECONDS),
      this.stems.minuteWindow,
      this.stems.dirtyUsage,
    );
  }

  /** Loads the key and its month's usage from Postgres into Redis, never over newer values. */
  private async seed(keyHash: string, now: number): Promise<void> {
    const month = usageMonth(now);
    const found = await this.store.byHashWithUsage(keyHash, month.id);
    if (!found)
      throw new DomainError('unauthenticated', 'API key is not valid or has been revoked');
    const ttl = Math.ceil(month.endsAt - now / 1000) + MONTH_COUNTER_GRACE_SECONDS;
    await this.redis.client
      .multi()
      .set(
        RedisKeys.accessRecord(keyHash),
        JSON.stringify(found.record),
        'EX',
        this.access.cacheTtl,
        'NX',
      )
      .set(
        RedisKeys.monthUsage(found.record.keyId, month.id),
        String(found.monthUsed),
        'EX',
        ttl,
        'NX',
      )
      .exec();
  }

  private decide(reply: Array<string | number>, now: number, counted: boolean): GateDecision {
    const [verdict, raw, windowUsed, monthUsed, reached] = reply as [
      string,
      string,
      number,
      number,
      number,
    ];
    const record = JSON.parse(raw) as AccessRecord;
    this.access.assertUsable(record);
    const window = minuteWindow(now);
    const month = usageMonth(now);
    const limits: LimitState = {
      plan: record.plan,
      ratePerMinute: record.limits.ratePerMinute,
      windowUsed,
      windowResetAt: window.resetAt,
      monthlyQuota: record.limits.monthlyQuota,
      monthUsed,
      monthEndsAt: month.endsAt,
    };
    return {
      verdict:
        verdict === 'rate' ? 'rate_limited' : verdict === 'quota' ? 'quota_exceeded' : 'admitted',
      record,
      limits,
      quotaReached: counted && reached === 1,
    };
  }

  private async failOpen(rawKey: string): Promise<GateDecision> {
    const record = await this.access.resolveFromStore(rawKey);
    return { verdict: 'admitted', record, limits: null, quotaReached: false };
  }
}
