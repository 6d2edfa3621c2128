import { DomainError } from '@custodian/contracts';
import { eventually, freePort, uniqueSuffix } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { loadGatewayConfig } from '../../config/gateway-config';
import { RedisConnection } from '../../redis/redis.provider';
import { ConsoleWriteLimits, type ConsoleWrite } from './console-write-limits';

/**
 * Issue 31, item 7: console writes are metered (per session, per workspace, and per record for
 * Test pings and resends), against the machine's Redis. Before, a session could write as fast
 * as it could send.
 */
describe('ConsoleWriteLimits (integration, real Redis)', () => {
  const config = loadGatewayConfig({
    REDIS_PREFIX: `t:${uniqueSuffix()}:`,
    CONSOLE_WRITES_PER_MINUTE: '3',
    CONSOLE_WORKSPACE_WRITES_PER_MINUTE: '5',
    CONSOLE_PINGS_PER_MINUTE: '2',
  });
  let connection: RedisConnection;
  let limits: ConsoleWriteLimits;
  /** 10 s into a minute window: 50 s left of it. */
  const now = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    connection = new RedisConnection(config);
    limits = new ConsoleWriteLimits(connection, config);
    await eventually(() => Promise.resolve(expect(connection.isReady()).toBe(true)));
  });

  afterAll(() => {
    connection?.client.disconnect();
    Logger.overrideLogger(['log', 'error', 'warn']);
  });

  /** The write's answer: 'ok', or the 429's Retry-After and message. */
  async function attempt(write: ConsoleWrite): Promise<string> {
    const headers: Record<string, string> = {};
    const reply = {
      header: (name: string, value: string) => (headers[name] = value),
    } as unknown as FastifyReply;
    try {
      await limits.count(write, reply, now);
      return 'ok';
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return `${error.code} after ${headers['retry-after']}: ${error.message}`;
    }
  }

  it('counts writes per session, never reads, and refuses past the limit with Retry-After', async () => {
    const write = { method: 'PATCH', sessionId: 'session-a', workspaceId: 'wsp_a' };
    expect(await attempt({ ...write, method: 'GET' })).toBe('ok');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await attempt(write));
    expect(answers).toEqual([
      'ok',
      'ok',
      'ok',
      'rate_limited after 50: Too many changes from this session: at most 3 a minute; try again in 50 seconds',
    ]);
    // Another member's session of the workspace has its own three, until the workspace's five.
    const other = { method: 'POST', sessionId: 'session-b', workspaceId: 'wsp_a' };
    expect(await attempt(other)).toBe('ok');
    expect(await attempt(other)).toMatch(
      /^rate_limited after 50: Too many changes in this workspace: at most 5 a minute/,
    );
  });

  it('limits Test pings per endpoint, beside the session', async () => {
    const ping = (session: string, endpoint: string): ConsoleWrite => ({
      method: 'POST',
      sessionId: session,
      workspaceId: 'wsp_pings',
      perRecord: { what: 'test ping', id: endpoint },
    });
    expect(await attempt(ping('s1', 'whe_1'))).toBe('ok');
    expect(await attempt(ping('s2', 'whe_1'))).toBe('ok');
    expect(await attempt(ping('s3', 'whe_1'))).toBe(
      'rate_limited after 50: Too many test pings: at most 2 a minute; try again in 50 seconds',
    );
    expect(await attempt(ping('s3', 'whe_2'))).toBe('ok');
  });

  it('lets writes through when Redis cannot be reached (the limits fail open)', async () => {
    const down = new RedisConnection(
      loadGatewayConfig({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` }),
    );
    try {
      const unmetered = new ConsoleWriteLimits(down, config);
      const reply = { header: () => undefined } as unknown as FastifyReply;
      for (let i = 0; i < 5; i++) {
        await expect(
          unmetered.count({ method: 'POST', sessionId: 'x', workspaceId: 'wsp_down' }, reply, now),
        ).resolves.toBeUndefined();
      }
    } finally {
      down.client.disconnect();
    }
  });
});
