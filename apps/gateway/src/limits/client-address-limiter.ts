import { DomainError } from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { Result } from 'ioredis';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { RedisKeys } from '../redis/redis-keys';
import { CLIENT_ADDRESS_SCRIPT } from './access-gate.script';
import { clientAddressKey } from './client-address-key';
import { minuteWindow, secondsUntil } from './windows';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    countClientAddress(key: string, ttl: string): Result<number, Context>;
  }
}

export interface AddressVerdict {
  headers: Record<string, string>;
  /** Seconds to wait when the address is over its limit, else null. */
  retryAfter: number | null;
}

/**
 * The brute-force guard: failed authentications per client address and minute. Valid keys
 * never pass through it; once an address is over the limit its unknown keys are refused
 * with 429 before Postgres is asked about them. An address is counted as clientAddressKey
 * keys it (an IPv6 client by its /64); which address the request has is TRUST_PROXY's
 * business (Fastify's `request.ip`).
 */
@Injectable()
export class ClientAddressLimiter {
  private readonly limit: number;

  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) config: GatewayConfig,
  ) {
    this.limit = config.UNAUTHENTICATED_RATE_PER_MINUTE;
    this.redis.client.defineCommand('countClientAddress', {
      numberOfKeys: 1,
      lua: CLIENT_ADDRESS_SCRIPT,
    });
  }

  /** Counts one failed authentication; null when Redis cannot be asked (fail open). */
  async countFailure(address: string): Promise<AddressVerdict | null> {
    const now = Date.now();
    const window = minuteWindow(now);
    try {
      const used = await this.redis.client.countClientAddress(
        RedisKeys.failedAuthentications(clientAddressKey(address), String(window.id)),
        '120',
      );
      return this.verdict(used, window.resetAt, now, used > this.limit);
    } catch {
      return null;
    }
  }

  /** Whether the address is already over its limit, without counting. */
  async check(address: string): Promise<AddressVerdict | null> {
    const now = Date.now();
    const window = minuteWindow(now);
    try {
      const used = Number(
        (await this.redis.client.get(
          RedisKeys.failedAuthentications(clientAddressKey(address), String(window.id)),
        )) ?? 0,
      );
      return used >= this.limit ? this.verdict(used, window.resetAt, now, true) : null;
    } catch {
      return null;
    }
  }

  tooManyError(): DomainError {
    return new DomainError(
      'rate_limited',
      `Rate limit of ${this.limit} unauthenticated requests per minute per client address exceeded`,
    );
  }

  private verdict(used: number, resetAt: number, now: number, over: boolean): AddressVerdict {
    return {
      headers: {
        'x-ratelimit-limit': String(this.limit),
        'x-ratelimit-remaining': String(Math.max(0, this.limit - used)),
        'x-ratelimit-reset': String(resetAt),
      },
      retryAfter: over ? secondsUntil(resetAt, now) : null,
    };
  }
}
