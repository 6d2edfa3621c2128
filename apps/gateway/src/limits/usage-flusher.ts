import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Result } from 'ioredis';
import { DataSource } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';
import { SETTLE_USAGE_SCRIPT } from './access-gate.script';
import { seedMonthCounter } from './month-counter';
import { UsageLedger, type LedgerEntry } from './usage-ledger';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    settleUsage(
      monthKey: string,
      dirtySet: string,
      member: string,
      generation: string,
      seen: string,
      unsent: string,
    ): Result<Array<string | number>, Context>;
  }
}

const BATCH = 500;

interface Usage {
  keyId: string;
  month: string;
  count: number;
}

/**
 * Persists monthly request counts: every few seconds it takes the counters the access gate
 * marked dirty and upserts them into Postgres. Counts only ever grow (GREATEST), so several
 * gateways flushing the same key in any order agree.
 *
 * Each pass also works off this process's ledger (usage-ledger.ts), so no count goes
 * backwards when Redis loses data or is away: requests served without Redis are added to it
 * once it is back; counts Postgres does not hold yet are brought to Redis again (a counter
 * Redis lost is raised back to them) and marked for the next flush. While Redis is away the
 * counts this process saw go to Postgres, so a Redis that comes back empty is seeded at
 * least there.
 */
@Injectable()
export class UsageFlusher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('UsageFlusher');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Redis (re)connected since the last pass: it may have come back without its data. */
  private reconnected = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly db: DataSource,
    private readonly ledger: UsageLedger,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {
    this.redis.client.defineCommand('settleUsage', { numberOfKeys: 2, lua: SETTLE_USAGE_SCRIPT });
    this.redis.client.on('ready', () => {
      this.reconnected = true;
      // At once rather than at the next tick (once started): another gateway may be seeding
      // from Postgres already.
      if (this.timer) void this.flush();
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.USAGE_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Before the Redis and Postgres connections close (their hooks run after this one). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
    // What Redis did not take goes to Postgres, requests served without Redis included: this
    // process will not be there to add them once Redis is back.
    await this.persistFloors(true).catch((error: unknown) => {
      this.logger.error(`usage counts lost at shutdown: ${(error as Error).message}`);
    });
  }

  /** One pass; concurrent calls share it. */
  flush(): Promise<void> {
    this.running ??= this.flushAll().finally(() => (this.running = null));
    return this.running;
  }

  private async flushAll(): Promise<void> {
    try {
      if (!this.redis.isReady()) {
        await this.persistFloors(false);
        return;
      }
      await this.sendUnsent();
      await this.flushDirty();
      await this.settleIdle();
    } catch (error) {
      this.logger.warn(`usage flush failed: ${(error as Error).message}`);
    }
  }

  /** Requests this process served while Redis was away, added to their counters. */
  private async sendUnsent(): Promise<void> {
    const unsent = this.ledger.all().filter((entry) => entry.unsent > 0);
    for (let start = 0; start < unsent.length; start += BATCH) {
      await this.settle(unsent.slice(start, start + BATCH));
    }
  }

  private async flushDirty(): Promise<void> {
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
  }

  private async persist(members: string[]): Promise<void> {
    const changed = members.flatMap((member) => {
      const split = member.lastIndexOf(':');
      return split < 0 ? [] : [{ keyId: member.slice(0, split), month: member.slice(split + 1) }];
    });
    const reading = this.redis.client.pipeline();
    for (const { keyId, month } of changed) {
      reading.hmget(RedisKeys.monthUsage(keyId, month), 'floor', 'n');
    }
    const counters = (await reading.exec()) ?? [];
    const usage = changed.flatMap(({ keyId, month }, index) => {
      const [error, fields] = counters[index] ?? [];
      if (error) throw error;
      const [floor, added] = fields as Array<string | null>;
      return floor === null || floor === undefined
        ? []
        : [{ keyId, month, count: Number(floor) + Number(added ?? 0) }];
    });
    await this.upsertAtLeast(usage);
  }

  /**
   * Entries that went quiet while Postgres still holds less than they saw: the flush that
   * should have caught up was lost (Redis lost the dirty set, or the counter with it). Brought
   * to Redis again and marked dirty, so the next pass persists them; forgotten once Postgres
   * holds them. An entry still in use is settled by its own requests.
   */
  private async settleIdle(): Promise<void> {
    const idleBefore = Date.now() - this.config.USAGE_FLUSH_INTERVAL_MS;
    // After a reconnection every entry counts as quiet: Redis may have lost all of them.
    const quietBefore = this.reconnected ? Infinity : idleBefore;
    this.reconnected = false;
    const behind = this.ledger
      .all()
      .filter(
        (entry) =>
          entry.unsent === 0 && entry.seen > entry.persisted && entry.touchedAt < quietBefore,
      )
      .slice(0, BATCH);
    if (behind.length > 0) {
      await this.readPersisted(behind);
      const still = behind.filter((entry) => entry.seen > entry.persisted);
      if (still.length > 0) await this.settle(still);
    }
    this.ledger.prune(idleBefore);
  }

  /** Brings entries to their counters in Redis (SETTLE_USAGE_SCRIPT), seeding lost ones. */
  private async settle(entries: LedgerEntry[], seedMissing = true): Promise<void> {
    const batch = this.redis.client.pipeline();
    const carried = entries.map((entry) => {
      const unsent = entry.unsent;
      entry.unsent = 0;
      batch.settleUsage(
        RedisKeys.monthUsage(entry.keyId, entry.month),
        RedisKeys.dirtyUsage,
        member(entry),
        entry.generation,
        String(entry.seen),
        String(unsent),
      );
      return unsent;
    });
    const replies = await batch.exec().catch(() => null);
    const missing: LedgerEntry[] = [];
    entries.forEach((entry, index) => {
      const [error, reply] = replies?.[index] ?? [new Error('no reply'), null];
      const settled = reply as Array<string | number> | null;
      if (error || !settled || settled[0] === 'miss') {
        // Like the gate: a script sent but not answered in time is taken as run.
        if (error?.message !== 'Command timed out') entry.unsent += carried[index] ?? 0;
        if (settled?.[0] === 'miss') missing.push(entry);
        return;
      }
      const [generation, count] = settled as [string, number];
      this.ledger.observe(entry.keyHash, entry.keyId, entry.month, generation, count);
    });
    if (missing.length > 0 && seedMissing) {
      await this.readPersisted(missing);
      const seeding = this.redis.client.multi();
      const now = Date.now();
      for (const entry of missing) {
        seedMonthCounter(seeding, entry.keyId, entry.month, entry.persisted, now);
      }
      await seeding.exec();
      await this.settle(missing, false);
    }
  }

  /**
   * Redis cannot take them: the counts this process saw go to Postgres as they are (each a
   * count Redis really reached, so GREATEST keeps it right). Unsent requests stay in the
   * ledger, for Redis once it is back, unless `withUnsent` (at shutdown): added to the count
   * they are a floor too, and this process will not send them.
   */
  private async persistFloors(withUnsent: boolean): Promise<void> {
    const floors = this.ledger
      .all()
      .map((entry) => ({ entry, count: entry.seen + (withUnsent ? entry.unsent : 0) }))
      .filter(({ entry, count }) => count > entry.persisted);
    for (let start = 0; start < floors.length; start += BATCH) {
      const slice = floors.slice(start, start + BATCH);
      await this.upsertAtLeast(
        slice.map(({ entry, count }) => ({ keyId: entry.keyId, month: entry.month, count })),
      );
      if (withUnsent) for (const { entry } of slice) entry.unsent = 0;
    }
  }

  /** Upserts counts that only ever raise what Postgres holds; confirms ledger entries. */
  private async upsertAtLeast(usage: Usage[]): Promise<void> {
    if (usage.length === 0) return;
    const rows = await this.db.query<Array<{ key_id: string; month: string; requests: string }>>(
      `INSERT INTO gateway.key_usage (key_id, month, requests)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (key_id, month) DO UPDATE
         SET requests = GREATEST(gateway.key_usage.requests, EXCLUDED.requests), updated_at = now()
       RETURNING key_id, month, requests`,
      [
        usage.map(({ keyId }) => keyId),
        usage.map(({ month }) => month),
        usage.map(({ count }) => String(count)),
      ],
    );
    this.confirm(rows);
  }

  private async readPersisted(entries: LedgerEntry[]): Promise<void> {
    const rows = await this.db.query<Array<{ key_id: string; month: string; requests: string }>>(
      `SELECT u.key_id, u.month, u.requests FROM gateway.key_usage u
       JOIN unnest($1::text[], $2::text[]) AS wanted(key_id, month)
         ON wanted.key_id = u.key_id AND wanted.month = u.month`,
      [entries.map(({ keyId }) => keyId), entries.map(({ month }) => month)],
    );
    this.confirm(rows);
  }

  private confirm(rows: Array<{ key_id: string; month: string; requests: string }>): void {
    if (rows.length === 0 || this.ledger.size === 0) return;
    const entries = new Map(this.ledger.all().map((entry) => [member(entry), entry]));
    for (const row of rows) {
      const entry = entries.get(`${row.key_id}:${row.month}`);
      if (entry) this.ledger.confirm(entry, Number(row.requests));
    }
  }
}

/** An entry's member of the dirty set. */
function member(entry: LedgerEntry): string {
  return `${entry.keyId}:${entry.month}`;
}
