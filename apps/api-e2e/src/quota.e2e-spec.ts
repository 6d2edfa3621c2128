import { eventually, startRedisServer, type RedisServer } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

/**
 * Monthly usage survives a restart or flush of Redis (DECISIONS: Limits and counting): the
 * usage flusher persists counts to gateway.key_usage, and the gate re-seeds from there; what
 * was served while Redis was down is added back (docs/decisions.md, Limits). The counts lost
 * since the last flush are in apps/gateway/src/limits/quota-restart.integration-spec.ts.
 */
describe('monthly quota persistence (e2e)', () => {
  let redis: RedisServer;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer();
    stack = new TestStack({ env: { REDIS_URL: redis.url, USAGE_FLUSH_INTERVAL_MS: '50' } });
    await stack.start();
  }, 30_000);

  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  async function persistedUsage(tenant: Tenant): Promise<number | null> {
    const rows = await stack.query<{ requests: string }>(
      `SELECT requests FROM gateway.key_usage WHERE key_id = $1`,
      [tenant.key.id],
    );
    return rows[0] ? Number(rows[0].requests) : null;
  }

  async function healthStatus(): Promise<string> {
    const base = stack.baseUrl.replace(/\/api\/v1$/, '');
    const response = await fetch(`${base}/health`);
    return ((await response.json()) as { status: string }).status;
  }

  /**
   * Proves the restart really lost the data. A sentinel rather than DBSIZE: the gateway
   * reconnects within milliseconds and may already have written its outage count back.
   */
  async function plantSentinel(): Promise<void> {
    expect(await redis.command('SET', 'test:sentinel', '1')).toBe('+OK\r\n');
  }

  async function expectSentinelGone(): Promise<void> {
    expect(await redis.command('EXISTS', 'test:sentinel')).toBe(':0\r\n');
  }

  /** Seven quota-counted requests (reads and creates), with uncounted /ping between them. */
  async function useSeven(tenant: Tenant): Promise<void> {
    for (let i = 1; i <= 7; i++) {
      expect((await tenant.get('/ping')).status).toBe(200);
      const response =
        i % 2 === 0
          ? await tenant.post('/assets', { name: `Asset ${i}` })
          : await tenant.get('/assets');
      expect(response.status).toBe(i % 2 === 0 ? 201 : 200);
      expect(response.headers.get('x-quota-used')).toBe(String(i));
    }
    await eventually(async () => expect(await persistedUsage(tenant)).toBe(7), {
      timeoutMs: 3_000,
    });
  }

  it('keeps the month count across a real restart of redis-server', async () => {
    const tenant = await stack.tenant('pro', 'write');
    await useSeven(tenant);
    expect(await healthStatus()).toBe('ok');
    await plantSentinel();

    await redis.restart();
    await expectSentinelGone();
    // ioredis notices the drop and reconnects; wait until the gateway reports Redis up again.
    await eventually(async () => expect(await healthStatus()).toBe('ok'), { timeoutMs: 8_000 });

    const next = await tenant.get('/assets');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-quota-used')).toBe('8');
    expect(next.headers.get('x-quota-remaining')).toBe(String(100_000 - 8));
  }, 15_000);

  it('counts the requests served while redis-server was down once it is back', async () => {
    const tenant = await stack.tenant('pro', 'write');
    await useSeven(tenant);
    await plantSentinel();

    await redis.stop();
    await eventually(async () => expect(await healthStatus()).toBe('degraded'), {
      timeoutMs: 5_000,
    });
    // The outage policy (docs/decisions.md, Limits): served, without limit headers, counted.
    for (let i = 0; i < 4; i++) {
      const response = await tenant.get('/assets');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-quota-used')).toBeNull();
    }
    await redis.restart();
    await expectSentinelGone();
    await eventually(async () => expect(await healthStatus()).toBe('ok'), { timeoutMs: 8_000 });

    const next = await tenant.get('/assets');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-quota-used')).toBe(String(7 + 4 + 1));
    await eventually(async () => expect(await persistedUsage(tenant)).toBe(12), {
      timeoutMs: 3_000,
    });
  }, 20_000);

  it('keeps the month count across FLUSHDB', async () => {
    const tenant = await stack.tenant('pro', 'write');
    await useSeven(tenant);

    expect(await redis.command('FLUSHDB')).toBe('+OK\r\n');
    expect(await redis.command('DBSIZE')).toBe(':0\r\n');

    const next = await tenant.get('/assets');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-quota-used')).toBe('8');
    await eventually(async () => expect(await persistedUsage(tenant)).toBe(8), {
      timeoutMs: 3_000,
    });
  });
});
