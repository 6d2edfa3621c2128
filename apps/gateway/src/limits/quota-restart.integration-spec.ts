import {
  createTestDatabase,
  eventually,
  startRedisServer,
  uniqueSuffix,
  type RedisServer,
  type TestDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { loadGatewayConfig, type GatewayConfig } from '../config/gateway-config';
import { gatewayDataSource } from '../database/data-source';
import { AccessCache } from '../keys/access-cache';
import { AccessStore } from '../keys/access-store';
import { AccessService } from '../keys/access.service';
import { displayPrefix, generateApiKey, hashApiKey } from '../keys/api-key-format';
import { migrateGateway } from '../migrate';
import { RedisConnection } from '../redis/redis.provider';
import { AccessGate, type GateDecision } from './access-gate';
import { UsageFlusher } from './usage-flusher';
import { UsageLedger } from './usage-ledger';

jest.setTimeout(20_000);

/**
 * The monthly count never goes backwards across a Redis restart (issue 11): gateways (each
 * its own connection, gate and flusher, as separate processes would have) against a
 * redis-server of their own that the tests stop and start, and a real Postgres. The flushers'
 * timers are not started: each test flushes when it wants a flush to have happened.
 */
let redis: RedisServer;
let database: TestDatabase;
let dataSource: DataSource;
let config: GatewayConfig;
const replicas: Replica[] = [];

interface Replica {
  redis: RedisConnection;
  gate: AccessGate;
  flusher: UsageFlusher;
}

async function replica(): Promise<Replica> {
  const connection = new RedisConnection(config);
  const store = new AccessStore(dataSource);
  const access = new AccessService(new AccessCache(connection, config), store);
  const ledger = new UsageLedger();
  const made = {
    redis: connection,
    gate: new AccessGate(connection, store, access, ledger, config),
    flusher: new UsageFlusher(connection, dataSource, ledger, config),
  };
  replicas.push(made);
  await eventually(() => Promise.resolve(expect(connection.isReady()).toBe(true)));
  return made;
}

async function newKey(monthlyQuota?: number): Promise<{ key: string; id: string }> {
  const suffix = uniqueSuffix();
  const key = generateApiKey();
  await dataSource.query(
    `INSERT INTO gateway.workspaces (id, name, plan, overrides)
     VALUES ($1, 'Quota restart', 'pro', $2)`,
    [`ws_${suffix}`, JSON.stringify(monthlyQuota === undefined ? {} : { monthlyQuota })],
  );
  await dataSource.query(
    `INSERT INTO gateway.api_keys (id, workspace_id, scope, prefix, key_hash)
     VALUES ($1, $2, 'write', $3, $4)`,
    [`key_${suffix}`, `ws_${suffix}`, displayPrefix(key), hashApiKey(key)],
  );
  return { key, id: `key_${suffix}` };
}

async function persisted(keyId: string): Promise<number | null> {
  const rows = await dataSource.query<Array<{ requests: string }>>(
    `SELECT requests FROM gateway.key_usage WHERE key_id = $1`,
    [keyId],
  );
  return rows[0] ? Number(rows[0].requests) : null;
}

/** Counted requests through one gateway; the X-Quota-Used of each (null: no headers). */
async function use(gateway: Replica, key: string, times: number): Promise<Array<number | null>> {
  const used: Array<number | null> = [];
  for (let i = 0; i < times; i++) {
    const decision: GateDecision = await gateway.gate.admit(key, true);
    expect(decision.verdict).toBe('admitted');
    used.push(decision.limits?.monthUsed ?? null);
  }
  return used;
}

async function stopRedis(): Promise<void> {
  await redis.stop();
  for (const each of replicas) {
    await eventually(() => Promise.resolve(expect(each.redis.isReady()).toBe(false)));
  }
}

/** Starts Redis again on its port, empty (the test server keeps nothing on disk). */
async function startRedis(): Promise<void> {
  await redis.restart();
  expect(await redis.command('DBSIZE')).toBe(':0\r\n');
  for (const each of replicas) {
    await eventually(() => Promise.resolve(expect(each.redis.isReady()).toBe(true)), {
      timeoutMs: 8_000,
    });
  }
}

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedisServer();
  database = await createTestDatabase();
  await migrateGateway(database.url);
  config = loadGatewayConfig({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `t:${uniqueSuffix()}:`,
    // How long a ledger entry must be quiet before its flusher settles it on its own.
    USAGE_FLUSH_INTERVAL_MS: '20',
  });
  dataSource = await gatewayDataSource(database.url, 4).initialize();
});

afterEach(() => {
  for (const each of replicas.splice(0)) each.redis.client.disconnect();
});

afterAll(async () => {
  if (dataSource?.isInitialized) await dataSource.destroy();
  await database?.drop();
  await redis?.stop();
});

describe('the monthly quota across a Redis restart', () => {
  it('counts what was served while Redis was down and never goes backwards', async () => {
    const gateway = await replica();
    const { key, id } = await newKey();
    const before = await use(gateway, key, 5);
    await gateway.flusher.flush();
    expect(await persisted(id)).toBe(5);
    // Counted in Redis, not flushed yet: lost with it.
    before.push(...(await use(gateway, key, 4)));
    expect(before).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);

    await stopRedis();
    // Served from Postgres without limit headers (the outage policy), but counted.
    expect(await use(gateway, key, 3)).toEqual([null, null, null]);
    await startRedis();

    const [after] = await use(gateway, key, 1);
    expect(after).toBeGreaterThanOrEqual(Math.max(...(before as number[])));
    expect(after).toBe(9 + 3 + 1);
    await gateway.flusher.flush();
    expect(await persisted(id)).toBe(13);
  });

  it('puts back what was counted since the last flush when Redis comes back empty', async () => {
    const gateway = await replica();
    const { key, id } = await newKey();
    await use(gateway, key, 3);
    await gateway.flusher.flush();
    expect(await use(gateway, key, 2)).toEqual([4, 5]);

    // A restart between two flushes, with no request in between.
    await startRedis();

    expect(await use(gateway, key, 1)).toEqual([6]);
    await gateway.flusher.flush();
    expect(await persisted(id)).toBe(6);
  });

  it('counts requests served during the outage towards the quota once Redis is back', async () => {
    const gateway = await replica();
    const { key } = await newKey(5);
    expect(await use(gateway, key, 3)).toEqual([1, 2, 3]);
    await stopRedis();
    // Limits fail open: past the quota, unrefused.
    expect(await use(gateway, key, 3)).toEqual([null, null, null]);
    await startRedis();

    const next = await gateway.gate.admit(key, true);
    expect(next.verdict).toBe('quota_exceeded');
    expect(next.limits?.monthUsed).toBe(6);
    // The call that took the count to the quota: plan.limit_reached is written for it.
    expect(next.quotaReached).toBe(true);
    expect((await gateway.gate.admit(key, true)).quotaReached).toBe(false);
  });
});

describe('two gateways across a Redis restart', () => {
  it('each adds back only what it served and saw: nothing twice, nothing lost', async () => {
    const [a, b] = [await replica(), await replica()];
    const { key, id } = await newKey();
    const before = [...(await use(a, key, 3)), ...(await use(b, key, 2))];
    await a.flusher.flush();
    expect(await persisted(id)).toBe(5);
    before.push(...(await use(a, key, 2)), ...(await use(b, key, 3)));
    expect(before).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    await stopRedis();
    await use(a, key, 2);
    await use(b, key, 1);
    await startRedis();

    // b saw 10 and served 1: both come back with its first request.
    expect(await use(b, key, 1)).toEqual([12]);
    // a's pass adds its 2 (its own highest, 7, is below the counter already).
    await a.flusher.flush();
    expect(await use(b, key, 1)).toEqual([15]);
    for (const gateway of [a, b, a, b]) await gateway.flusher.flush();
    expect(await persisted(id)).toBe(15);
    expect(await use(a, key, 1)).toEqual([16]);
  });

  it('brings back what one gateway saw though it gets no more requests for the key', async () => {
    const [a, b] = [await replica(), await replica()];
    const { key, id } = await newKey();
    await use(a, key, 4);
    await a.flusher.flush();
    expect(await use(a, key, 3)).toEqual([5, 6, 7]);

    await startRedis();
    // a's first pass after reconnecting (at once in the app, on ioredis's 'ready').
    await a.flusher.flush();

    expect(await use(b, key, 1)).toEqual([8]);
    await b.flusher.flush();
    expect(await persisted(id)).toBe(8);
  });

  it('keeps what a gateway saw and served in Postgres when it stops while Redis is down', async () => {
    const [a, b] = [await replica(), await replica()];
    const { key, id } = await newKey();
    await use(a, key, 3);
    await a.flusher.flush();
    await use(a, key, 3);

    await stopRedis();
    // A pass during the outage: the counts a saw go to Postgres, the seed of an empty Redis.
    await a.flusher.flush();
    expect(await persisted(id)).toBe(6);
    await use(a, key, 2);
    await a.flusher.beforeApplicationShutdown();
    expect(await persisted(id)).toBe(8);
    await startRedis();

    expect(await use(b, key, 1)).toEqual([9]);
  });
});
