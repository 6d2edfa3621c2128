import { DomainError } from '@custodian/contracts';
import { eventually, uniqueSuffix } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { loadGatewayConfig } from '../../config/gateway-config';
import { RedisConnection } from '../../redis/redis.provider';
import { SignInLimiter } from './sign-in-limiter';

const reply = { header: () => undefined } as unknown as FastifyReply;

/** How many of the calls went through, and how many were refused 429. */
async function outcomes(
  calls: Array<Promise<void>>,
): Promise<{ through: number; refused: number }> {
  const settled = await Promise.allSettled(calls);
  const refused = settled.filter(
    (one) =>
      one.status === 'rejected' &&
      one.reason instanceof DomainError &&
      one.reason.code === 'rate_limited',
  ).length;
  const through = settled.filter((one) => one.status === 'fulfilled').length;
  expect(through + refused).toBe(calls.length);
  return { through, refused };
}

/**
 * Issue 31, item 5: sign-in limits are taken before the work, against the machine's Redis.
 * Before, the failures were read before the password check and counted after it, so a burst
 * of attempts at once all read 0 and every one of them was verified (argon2id each).
 */
describe('SignInLimiter (integration, real Redis)', () => {
  const config = loadGatewayConfig({
    REDIS_PREFIX: `t:${uniqueSuffix()}:`,
    SIGN_IN_FAILURES_PER_ACCOUNT: '10',
    SIGN_IN_LINKS_PER_ACCOUNT: '5',
    SIGN_IN_LINKS_PER_ADDRESS: '8',
  });
  let connection: RedisConnection;
  let limiter: SignInLimiter;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    connection = new RedisConnection(config);
    limiter = new SignInLimiter(connection, config);
    await eventually(() => Promise.resolve(expect(connection.isReady()).toBe(true)));
  });

  afterAll(() => connection?.client.disconnect());

  it('lets at most the limit of 2,000 attempts at once through to a password check', async () => {
    const burst = Array.from({ length: 2_000 }, () =>
      limiter.reservePasswordAttempt('target@example.com', reply),
    );
    expect(await outcomes(burst)).toEqual({ through: 10, refused: 1_990 });
  });

  it('frees the account again after a right password', async () => {
    const email = 'right@example.com';
    expect(
      await outcomes(
        Array.from({ length: 12 }, () => limiter.reservePasswordAttempt(email, reply)),
      ),
    ).toEqual({ through: 10, refused: 2 });
    await limiter.clearFailedPasswords(email);
    await expect(limiter.reservePasswordAttempt(email, reply)).resolves.toBeUndefined();
  });

  it('limits links per account, and per client address whatever e-mails it names', async () => {
    const perAccount = await outcomes(
      Array.from({ length: 7 }, () =>
        limiter.countLinkRequest('inbox@example.com', '203.0.113.1', reply),
      ),
    );
    expect(perAccount).toEqual({ through: 5, refused: 2 });
    const perAddress = await outcomes(
      Array.from({ length: 10 }, (_, i) =>
        limiter.countLinkRequest(`member${i}@example.com`, '203.0.113.2', reply),
      ),
    );
    expect(perAddress).toEqual({ through: 8, refused: 2 });
  });
});
