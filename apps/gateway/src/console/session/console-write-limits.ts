import { DomainError } from '@custodian/contracts';
import { Inject, Injectable, Logger, SetMetadata } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../../config/gateway-config';
import { RedisConnection } from '../../redis/redis.provider';
import { RedisKeys } from '../../redis/redis-keys';

const WINDOW_SECONDS = 60;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CONSOLE_PER_RECORD_LIMIT = 'custodian:console-per-record-limit';

/**
 * A write route that is also limited per record (its `:id`), beside the session and workspace
 * limits of every console write: Test pings per endpoint, resends per delivery
 * (CONSOLE_PINGS_PER_MINUTE). `what` names it in the refusal.
 */
export const PerRecordLimit = (what: string): MethodDecorator =>
  SetMetadata(CONSOLE_PER_RECORD_LIMIT, what);

/** What a write is counted against: the session, its workspace, and maybe its record. */
export interface ConsoleWrite {
  method: string;
  sessionId: string;
  workspaceId: string;
  /** Set for a route limited per record (PerRecordLimit): its name and the record's id. */
  perRecord?: { what: string; id: string };
}

/**
 * The console's write limits (issue 31, item 7): every console write counts in fixed
 * one-minute windows, per session and per workspace, in one round trip to Redis; a route
 * limited per record counts there too. Past a limit: 429 with Retry-After (the seconds left in
 * the window), whose message the console shows as it is. Counted before the work, so a
 * refused write did nothing. Redis unreachable: the write goes on (the limits fail open, as
 * the API's do); the session check before it already needed Redis.
 */
@Injectable()
export class ConsoleWriteLimits {
  private readonly logger = new Logger('ConsoleWriteLimits');

  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async count(write: ConsoleWrite, reply: FastifyReply, now = Date.now()): Promise<void> {
    if (!WRITE_METHODS.has(write.method.toUpperCase())) return;
    const window = String(Math.floor(now / 1000 / WINDOW_SECONDS));
    const checks: Array<{ key: string; limit: number; message: string }> = [
      {
        key: RedisKeys.consoleWrites(`session:${digest(write.sessionId)}`, window),
        limit: this.config.CONSOLE_WRITES_PER_MINUTE,
        message: `Too many changes from this session: at most ${this.config.CONSOLE_WRITES_PER_MINUTE} a minute`,
      },
      {
        key: RedisKeys.consoleWrites(`workspace:${write.workspaceId}`, window),
        limit: this.config.CONSOLE_WORKSPACE_WRITES_PER_MINUTE,
        message: `Too many changes in this workspace: at most ${this.config.CONSOLE_WORKSPACE_WRITES_PER_MINUTE} a minute, all members together`,
      },
    ];
    if (write.perRecord) {
      checks.push({
        key: RedisKeys.consoleWrites(`${write.perRecord.what}:${write.perRecord.id}`, window),
        limit: this.config.CONSOLE_PINGS_PER_MINUTE,
        message: `Too many ${write.perRecord.what}s: at most ${this.config.CONSOLE_PINGS_PER_MINUTE} a minute`,
      });
    }
    let counts: number[];
    try {
      const multi = this.redis.client.multi();
      for (const { key } of checks) multi.incr(key).expire(key, WINDOW_SECONDS * 2);
      const results = (await multi.exec()) ?? [];
      counts = checks.map((_, i) => Number(results[i * 2]?.[1] ?? 0));
    } catch (error) {
      this.logger.warn(`console write limits not counted: ${(error as Error).message}`);
      return;
    }
    const over = checks.find((check, i) => (counts[i] ?? 0) > check.limit);
    if (!over) return;
    const retryAfter = Math.max(1, Math.ceil(WINDOW_SECONDS - ((now / 1000) % WINDOW_SECONDS)));
    void reply.header('retry-after', String(retryAfter));
    throw new DomainError(
      'rate_limited',
      `${over.message}; try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
    );
  }
}

function digest(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}
