import { DomainError } from '@custodian/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';

const WINDOW_SECONDS = 60;

/**
 * Fetches of one feed URL a minute (CALENDAR_FEED_FETCHES_PER_MINUTE), counted in fixed
 * windows in Redis by the SHA-256 of the token (the token itself is never a key name), before
 * the register is asked anything: a calendar app polls every few minutes at most, a script
 * looping on a leaked URL would otherwise run the workspace's bookings query each time.
 * Guessed tokens are the per-address guard's business (AdmissionService). Redis unreachable:
 * the fetch goes on (limits fail open, as the API's do).
 */
@Injectable()
export class CalendarFeedLimiter {
  private readonly logger = new Logger('CalendarFeedLimiter');

  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async count(token: string, reply: FastifyReply, now = Date.now()): Promise<void> {
    const window = Math.floor(now / 1000 / WINDOW_SECONDS);
    const key = RedisKeys.calendarFeedFetches(digest(token), String(window));
    let used: number;
    try {
      const results = await this.redis.client
        .multi()
        .incr(key)
        .expire(key, WINDOW_SECONDS * 2)
        .exec();
      used = Number(results?.[0]?.[1] ?? 0);
    } catch (error) {
      this.logger.warn(`calendar feed fetches not counted: ${(error as Error).message}`);
      return;
    }
    const limit = this.config.CALENDAR_FEED_FETCHES_PER_MINUTE;
    if (used <= limit) return;
    const retryAfter = Math.max(1, Math.ceil((window + 1) * WINDOW_SECONDS - now / 1000));
    void reply.header('retry-after', String(retryAfter));
    throw new DomainError(
      'rate_limited',
      `This calendar feed was fetched more than ${limit} times this minute; try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
    );
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
