import { DomainError } from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../../config/gateway-config';
import { RedisConnection } from '../../redis/redis.provider';
import { RedisKeys } from '../../redis/redis-keys';

const WINDOW_SECONDS = 15 * 60;

/**
 * Per-account limits on sign-in, beside the per-address limit of failed credentials that the
 * API keys share (AdmissionService): failed passwords of one e-mail, and sign-in links mailed
 * to one e-mail (so nobody can flood an inbox). Counted in fixed 15-minute windows.
 */
@Injectable()
export class SignInLimiter {
  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** Refuses with 429 when the account's failed passwords reached the limit. */
  async checkPasswordAttempts(email: string, reply: FastifyReply): Promise<void> {
    const key = RedisKeys.consoleSignInFailures(account(email), windowOf());
    const count = Number((await this.command(() => this.redis.client.get(key))) ?? 0);
    if (count >= this.config.SIGN_IN_FAILURES_PER_ACCOUNT) {
      refuse(
        reply,
        'Too many failed sign-ins for this account; try again in a few minutes or use a sign-in link',
      );
    }
  }

  async countFailedPassword(email: string): Promise<void> {
    await this.increment(RedisKeys.consoleSignInFailures(account(email), windowOf()));
  }

  async clearFailedPasswords(email: string): Promise<void> {
    await this.command(() =>
      this.redis.client.del(RedisKeys.consoleSignInFailures(account(email), windowOf())),
    );
  }

  /** Counts a link request; 429 once the account had its share in this window. */
  async countLinkRequest(email: string, reply: FastifyReply): Promise<void> {
    const count = await this.increment(RedisKeys.consoleSignInLinks(account(email), windowOf()));
    if (count > this.config.SIGN_IN_LINKS_PER_ACCOUNT) {
      refuse(
        reply,
        'Too many sign-in links were asked for this address; try again in a few minutes',
      );
    }
  }

  private async increment(key: string): Promise<number> {
    return this.command(async () => {
      const [[, count]] = (await this.redis.client
        .multi()
        .incr(key)
        .expire(key, WINDOW_SECONDS)
        .exec()) as [[Error | null, number]];
      return count;
    });
  }

  private async command<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch {
      throw new DomainError(
        'unavailable',
        'Signing in is unavailable for a moment (the session store cannot be reached); try again shortly',
      );
    }
  }
}

function account(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
}

function windowOf(now = Date.now()): string {
  return String(Math.floor(now / 1000 / WINDOW_SECONDS));
}

function refuse(reply: FastifyReply, message: string): never {
  const now = Date.now() / 1000;
  const retryAfter = Math.max(1, Math.ceil(WINDOW_SECONDS - (now % WINDOW_SECONDS)));
  void reply.header('retry-after', String(retryAfter));
  throw new DomainError('rate_limited', message);
}
