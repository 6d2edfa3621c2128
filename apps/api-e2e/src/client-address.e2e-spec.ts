import type { ErrorBody } from '@custodian/contracts';
import { eventually } from '@custodian/testing';
import { TestStack } from './support/stack';

const LIMIT = 3;
/**
 * These tests are about which address is counted: a slow Redis on a busy machine must not make
 * the guard fail open (it then reports nothing) in the middle of one.
 */
const REDIS_COMMAND_TIMEOUT_MS = '2000';

// Up to 5 s waiting for a fresh minute window, then the requests on a busy machine.
jest.setTimeout(20_000);

async function freshWindow(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * One failed authentication (an unknown key) with `X-Forwarded-For: forwardedFor`; its status
 * and what the guard reports as left for the address it counted.
 */
async function badKey(
  stack: TestStack,
  forwardedFor?: string,
): Promise<{ status: number; remaining: string | null }> {
  const headers: Record<string, string> = { 'x-api-key': 'not-a-key' };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  const response = await stack.request<ErrorBody>('/ping', { headers });
  return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining') };
}

/**
 * Starts the stack and waits until the gateway has Redis: before that the guard fails open and
 * reports nothing, which these tests would read as an address not being counted.
 */
async function startWithRedis(stack: TestStack): Promise<void> {
  await stack.start();
  const health = `${stack.baseUrl.replace(/\/api\/v1$/, '')}/health`;
  await eventually(async () => {
    const response = await fetch(health);
    expect(((await response.json()) as { status: string }).status).toBe('ok');
  });
}

const counted = (remaining: number) => ({ status: 401, remaining: String(remaining) });
const refused = { status: 429, remaining: '0' };

/**
 * Which address the brute-force guard counts (TRUST_PROXY and the client-address key). The test
 * process plays the proxy in front of the gateway: the socket's 127.0.0.1 is the proxy, and the
 * last X-Forwarded-For entry is the client address it saw; anything left of it is what the
 * client wrote.
 */
describe('client address behind one trusted proxy (TRUST_PROXY=1, e2e)', () => {
  const stack = new TestStack({
    env: {
      UNAUTHENTICATED_RATE_PER_MINUTE: String(LIMIT),
      REDIS_COMMAND_TIMEOUT_MS,
      TRUST_PROXY: '1',
    },
    worker: false,
  });

  beforeAll(() => startWithRedis(stack), 30_000);
  afterAll(() => stack.stop());

  beforeEach(() => freshWindow());

  it('limits by the address the proxy saw, not by the chain the client forged', async () => {
    const seen = [];
    // The client wrote "1.2.3.4" and then "9.9.9.9, 1.2.3.4"; the proxy appended 5.6.7.8.
    seen.push(await badKey(stack, '1.2.3.4, 5.6.7.8'));
    seen.push(await badKey(stack, '9.9.9.9, 1.2.3.4, 5.6.7.8'));
    seen.push(await badKey(stack, '1.2.3.4, 5.6.7.8'));
    seen.push(await badKey(stack, '203.0.113.50, 5.6.7.8'));
    expect(seen).toEqual([counted(2), counted(1), counted(0), refused]);

    // The forged addresses were never counted: clients the proxy saw as them start afresh.
    expect(await badKey(stack, '1.2.3.4')).toEqual(counted(2));
    expect(await badKey(stack, '5.6.7.9, 9.9.9.9')).toEqual(counted(2));
    // Nor was the proxy itself (a request with no X-Forwarded-For is the socket's).
    expect(await badKey(stack)).toEqual(counted(2));
  });

  it('limits an IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    const sameNetwork = [
      '2001:db8:a:b::1',
      '2001:DB8:A:B:FFFF:FFFF:FFFF:FFFE',
      '2001:0db8:000a:000b:0:0:0:3',
      '2001:db8:a:b::abcd',
    ];
    const seen = [];
    for (const address of sameNetwork) seen.push(await badKey(stack, address));
    expect(seen).toEqual([counted(2), counted(1), counted(0), refused]);
    // The next /64 is another client.
    expect(await badKey(stack, '2001:db8:a:c::1')).toEqual(counted(2));

    expect(await badKey(stack, '198.51.100.7')).toEqual(counted(2));
    expect(await badKey(stack, '::ffff:198.51.100.7')).toEqual(counted(1));
    expect(await badKey(stack, '::FFFF:c633:6407')).toEqual(counted(0));
    expect(await badKey(stack, '198.51.100.7')).toEqual(refused);
  });
});

describe('client address with TRUST_PROXY off (the default, e2e)', () => {
  const stack = new TestStack({
    env: { UNAUTHENTICATED_RATE_PER_MINUTE: String(LIMIT), REDIS_COMMAND_TIMEOUT_MS },
    worker: false,
  });

  beforeAll(() => startWithRedis(stack), 30_000);
  afterAll(() => stack.stop());

  it('ignores X-Forwarded-For: every request counts against the socket address', async () => {
    await freshWindow();
    const seen = [
      await badKey(stack, '1.2.3.4'),
      await badKey(stack, '5.6.7.8, 1.2.3.4'),
      await badKey(stack),
      await badKey(stack, '2001:db8::1'),
    ];
    expect(seen).toEqual([counted(2), counted(1), counted(0), refused]);
  });
});
