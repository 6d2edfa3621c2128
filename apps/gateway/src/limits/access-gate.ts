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
import { seedMonthCounter } from './month-counter';
import { UsageLedger, type Carried } from './usage-ledger';
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
      generation: string,
      seen: string,
      unsent: string,
    ): Result<Array<string | number>, Context>;
  }
}

export type GateVerdict = 'admitted' | 'rate_limited' | 'quota_exceeded';

export interface GateDecision {
  verdict: GateVerdict;
  record: AccessRecord;
  /**
   * Null when Redis could not be asked: limits fail open, and the request is counted in the
   * gateway until Redis is back (usage-ledger.ts).
   */
  limits: LimitState | null;
  /** True when this request took the month's count to the quota. */
  quotaReached: boolean;
}

const WINDOW_TTL_SECONDS = 120;
/** ioredis's error for a command sent but not answered within REDIS_COMMAND_TIMEOUT_MS. */
const TIMED_OUT = 'Command timed out';

/**
 * Authenticates a key and applies both limits. Warm path: one Redis round trip, no Postgres.
 * Cold path (first use, after a flush or restart, new month): the record and the month's
 * count are loaded from Postgres, seeded with NX, and the script runs again. Each request
 * carries what this process knows of the key's month (UsageLedger), so a counter Redis lost
 * comes back at least where it was, plus what was served while Redis was away.
 */
@Injectable()
export class AccessGate {
  private readonly logger = new Logger('AccessGate');
  private readonly stems: ReturnType<typeof scriptStems>;

  constructor(
    private readonly redis: RedisConnection,
    private readonly store: AccessStore,
    private readonly access: AccessService,
    private readonly ledger: UsageLedger,
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
    const keyHash = hashApiKey(rawKey);
    const now = Date.now();
    const month = usageMonth(now).id;
    if (!this.redis.isReady()) return this.failOpen(rawKey, keyHash, month, countsTowardQuota);
    const carried = this.ledger.carry(keyHash, month, now);
    let sentUnanswered = false;
    const run = () =>
      this.runScript(keyHash, now, countsTowardQuota, carried).catch((error: Error) => {
        sentUnanswered = error.message === TIMED_OUT;
        throw error;
      });
    let reply;
    try {
      reply = await run();
      if (reply[0] === 'miss') {
        await beforeColdLookup();
        await this.seed(keyHash, now);
        reply = await run();
      }
    } catch (error) {
      if (error instanceof DomainError) {
        this.ledger.giveBack(keyHash, month, carried);
        throw error;
      }
      // A failed EVALSHA/MULTI: Redis is unreachable or too slow (100 ms timeout).
      this.logger.warn(`limits not applied, Redis failed: ${(error as Error).message}`);
      // Redis runs a script it was sent even when the answer comes too late: taken as counted
      // there, rather than twice. Any other failure is taken as not run: the connection was
      // not up, or dropped, most often with Redis and what it held.
      if (sentUnanswered) return this.failOpen(rawKey, keyHash, month, false);
      this.ledger.giveBack(keyHash, month, carried);
      return this.failOpen(rawKey, keyHash, month, countsTowardQuota);
    }
    if (reply[0] === 'miss') {
      this.ledger.giveBack(keyHash, month, carried);
      return this.failOpen(rawKey, keyHash, month, countsTowardQuota);
    }
    return this.decide(keyHash, month, carried, reply, now);
  }

  private runScript(keyHash: string, now: number, counts: boolean, carried: Carried) {
    return this.redis.client.accessGate(
      RedisKeys.accessRecord(keyHash),
      this.stems.monthUsage,
      String(minuteWindow(now).id),
      usageMonth(now).id,
      counts ? '1' : '0',
      String(WINDOW_TTL_SECONDS),
      this.stems.minuteWindow,
      this.stems.dirtyUsage,
      carried.generation,
      String(carried.seen),
      String(carried.unsent),
    );
  }

  /** Loads the key and its month's usage from Postgres into Redis, never over newer values. */
  private async seed(keyHash: string, now: number): Promise<void> {
    const month = usageMonth(now);
    const found = await this.store.byHashWithUsage(keyHash, month.id);
    if (!found)
      throw new DomainError('unauthenticated', 'API key is not valid or has been revoked');
    const seeding = this.redis.client
      .multi()
      .set(
        RedisKeys.accessRecord(keyHash),
        JSON.stringify(found.record),
        'EX',
        this.access.cacheTtl,
        'NX',
      );
    await seedMonthCounter(seeding, found.record.keyId, month.id, found.monthUsed, now).exec();
  }

  private decide(
    keyHash: string,
    month: string,
    carried: Carried,
    reply: Array<string | number>,
    now: number,
  ): GateDecision {
    const [verdict, raw, windowUsed, monthUsed, reached, generation] = reply as [
      string,
      string,
      number,
      number,
      number,
      string,
    ];
    const record = JSON.parse(raw) as AccessRecord;
    // The script left the counter alone (revoked key, plan without API access): the unsent
    // requests wait for the flusher, which settles counters without asking about the key.
    if (generation === '') this.ledger.giveBack(keyHash, month, carried);
    else this.ledger.observe(keyHash, record.keyId, month, generation, monthUsed);
    this.access.assertUsable(record);
    const window = minuteWindow(now);
    const limits: LimitState = {
      plan: record.plan,
      ratePerMinute: record.limits.ratePerMinute,
      windowUsed,
      windowResetAt: window.resetAt,
      monthlyQuota: record.limits.monthlyQuota,
      monthUsed,
      monthEndsAt: usageMonth(now).endsAt,
    };
    return {
      verdict:
        verdict === 'rate' ? 'rate_limited' : verdict === 'quota' ? 'quota_exceeded' : 'admitted',
      record,
      limits,
      quotaReached: reached === 1,
    };
  }

  /**
   * Redis cannot count: the key comes from Postgres and is served without limits (the outage
   * policy, docs/decisions.md "Limits"); a counted request waits in the ledger for Redis.
   */
  private async failOpen(
    rawKey: string,
    keyHash: string,
    month: string,
    counts: boolean,
  ): Promise<GateDecision> {
    const record = await this.access.resolveFromStore(rawKey);
    // The plan gate refuses these; the script would not count them either.
    if (counts && record.apiAccess) this.ledger.countUnsent(keyHash, record.keyId, month, 1);
    return { verdict: 'admitted', record, limits: null, quotaReached: false };
  }
}
