import type { AssetDetail } from '@custodian/contracts';
import { startRedisServer, type RedisServer } from '@custodian/testing';
import { Tenant, TestStack } from './support/stack';

const N = 20;

/** Commands sent by clients, not run inside a script: MONITOR marks those `[<db> lua]`. */
function clientCommands(lines: string[]): string[] {
  return lines
    .filter((line) => !/^\+[\d.]+ \[\d+ lua\]/.test(line))
    .map((line) => /"([^"]+)"/.exec(line)?.[1]?.toLowerCase() ?? line);
}

function delta(before: Record<string, number>, after: Record<string, number>) {
  const out: Record<string, number> = {};
  for (const [name, calls] of Object.entries(after)) {
    const diff = calls - (before[name] ?? 0);
    if (diff !== 0) out[name] = diff;
  }
  return out;
}

/**
 * The warm path of an authenticated request costs one Redis round trip and no gateway
 * Postgres query (DECISIONS: Limits and counting; access-gate.ts). Counted on a redis-server
 * that only this stack uses, with the usage flusher held off for the measurement.
 */
describe('one Redis round trip per request (e2e)', () => {
  let redis: RedisServer;
  let stack: TestStack;
  let tenant: Tenant;
  let readTenant: Tenant;
  let assetId: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    // Background work (usage flush, outbox polling, cache repair) would blur the per-request
    // counts. The gateway's queries are counted inside its process (postgres-probe.js).
    stack = new TestStack({
      env: {
        REDIS_URL: redis.url,
        USAGE_FLUSH_INTERVAL_MS: '60000',
        OUTBOX_POLL_MS: '60000',
        CACHE_REPAIR_INTERVAL_MS: '600000',
      },
      probeGatewayPostgres: true,
    });
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    readTenant = new Tenant(
      stack,
      tenant.workspace,
      await stack.createKey(tenant.workspace.id, 'read'),
    );
    const created = await tenant.post<AssetDetail>('/assets', { name: 'Laptop' });
    expect(created.status).toBe(201);
    assetId = created.body.id;
  }, 30_000);

  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  async function measure(send: () => Promise<unknown>) {
    // Every query path of TypeORM (query runners, transactions) checks a client out of a pool.
    const postgresBefore = await stack.gatewayPostgresCounts();
    const before = await redis.commandCounts();
    const monitor = await redis.monitor();
    await send();
    // MONITOR delivers asynchronously; the replies have all been sent, give the lines a moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await monitor.stop();
    const after = await redis.commandCounts();
    const counts = delta(before, after);
    delete counts.info; // the INFO calls of the measurement itself
    delete counts.monitor;
    const postgresAfter = await stack.gatewayPostgresCounts();
    return {
      counts,
      clientCommands: clientCommands(monitor.lines),
      postgresQueries: postgresAfter.queries - postgresBefore.queries,
      poolCheckouts: postgresAfter.checkouts - postgresBefore.checkouts,
    };
  }

  it('serves warm GET /assets/{id} with exactly one Redis command each and no Postgres', async () => {
    // Warm-up: the first request seeds the key and the month's counter (and loads the script).
    expect((await tenant.get(`/assets/${assetId}`)).status).toBe(200);
    expect((await readTenant.get(`/assets/${assetId}`)).status).toBe(200);

    const result = await measure(async () => {
      for (let i = 0; i < N; i++) {
        const who = i % 2 === 0 ? tenant : readTenant;
        const response = await who.get(`/assets/${assetId}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
      }
    });

    expect(result.clientCommands).toEqual(Array<string>(N).fill('evalsha'));
    expect(result.counts.evalsha).toBe(N);
    expect(result.counts.eval).toBeUndefined();
    // Everything else counted ran inside the script (the record, the month counter's hash,
    // the minute window, the dirty set).
    expect(Object.keys(result.counts).sort()).toEqual(
      expect.arrayContaining(['evalsha', 'get', 'hincrby', 'hmget', 'incr']),
    );
    for (const name of Object.keys(result.counts)) {
      expect(['evalsha', 'get', 'hmget', 'hincrby', 'incr', 'sadd', 'expire']).toContain(name);
    }
    expect(result.postgresQueries).toBe(0);
    expect(result.poolCheckouts).toBe(0);
  });

  it('serves warm /ping with exactly one Redis command each and no Postgres', async () => {
    expect((await tenant.get('/ping')).status).toBe(200);

    const result = await measure(async () => {
      for (let i = 0; i < N; i++) {
        const response = await tenant.get('/ping');
        expect(response.status).toBe(200);
      }
    });

    expect(result.clientCommands).toEqual(Array<string>(N).fill('evalsha'));
    expect(result.counts.evalsha).toBe(N);
    // /ping is outside the quota: the script never touches the month counter or dirty set.
    expect(result.counts.sadd).toBeUndefined();
    expect(result.postgresQueries).toBe(0);
    expect(result.poolCheckouts).toBe(0);
  });

  it('counts what it measures: a cold key costs Postgres and more than one command', async () => {
    const cold = await stack.tenant('pro', 'read');
    const result = await measure(async () => {
      expect((await cold.get('/ping')).status).toBe(200);
    });
    expect(result.clientCommands.length).toBeGreaterThan(1);
    expect(result.postgresQueries).toBeGreaterThan(0);
    expect(result.poolCheckouts).toBeGreaterThan(0);
  });
});
