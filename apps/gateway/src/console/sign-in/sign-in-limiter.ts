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
 * API keys share (AdmissionService): password attempts of one e-mail (reserved before the
 * check), and sign-in links mailed to one e-mail (so nobody can flood an inbox) or asked from
 * one client address (so nobody can mail every member). Counted in fixed 15-minute windows.
 */
@Injectable()
export class SignInLimiter {
  constructor(
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /**
   * Takes one of the account's password attempts of this window before the password is
   * checked (reserve, then verify): each attempt counts as a failure until it succeeds
   * (clearFailedPasswords), so a burst of any size makes at most the limit's number of
   * verifications, and the rest are 429 without one. Before, the count was read first and a
   * failure added after the check: 2,000 attempts at once all read 0 and were all verified.
   */
  async reservePasswordAttempt(email: string, reply: FastifyReply): Promise<void> {
    const count = await this.increment(RedisKeys.consoleSignInFailures(account(email), windowOf()));
    if (count > this.config.SIGN_IN_FAILURES_PER_ACCOUNT) {
      refuse(
        reply,
        'Too many failed sign-ins for this account; try again in a few minutes or use a sign-in link',
      );
    }
  }

  async clearFailedPasswords(email: string): Promise<void> {
    await this.command(() =>
      this.redis.client.del(RedisKeys.consoleSignInFailures(account(email), windowOf())),
    );
  }

  /**
   * Counts a link request; 429 once the account, or the client address (whatever e-mails it
   * names), had its share in this window.
   */
  async countLinkRequest(email: string, address: string, reply: FastifyReply): Promise<void> {
    const window = windowOf();
    const [byAccount, byAddress] = await Promise.all([
      this.increment(RedisKeys.consoleSignInLinks(account(email), window)),
      this.increment(RedisKeys.consoleSignInLinks(`ip:${digest(address)}`, window)),
    ]);
    if (byAccount > this.config.SIGN_IN_LINKS_PER_ACCOUNT) {
      refuse(
        reply,
        'Too many sign-in links were asked for this address; try again in a few minutes',
      );
    }
    if (byAddress > this.config.SIGN_IN_LINKS_PER_ADDRESS) {
      refuse(
        reply,
        'Too many sign-in links were asked from your network; try again in a few minutes',
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
  return digest(email.trim().toLowerCase());
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
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
