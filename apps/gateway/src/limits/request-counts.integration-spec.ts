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
import { AccessGate } from './access-gate';
import { RequestCounts } from './request-counts';
import { UsageFlusher } from './usage-flusher';
import { UsageLedger } from './usage-ledger';

jest.setTimeout(20_000);

/**
 * RequestCounts reads back what the access gate counted, against a redis-server of its own
 * (stopped and restarted empty by the tests) and a real Postgres: live while Redis has the
 * counters, from Postgres once Redis lost them, and no minute at all while Redis is away.
 */
let redis: RedisServer;
let database: TestDatabase;
let db: DataSource;
let config: GatewayConfig;
let connection: RedisConnection;
let gate: AccessGate;
let flusher: UsageFlusher;
let counts: RequestCounts;

async function newKey(): Promise<{ key: string; id: string }> {
  const suffix = uniqueSuffix();
  const key = generateApiKey();
  await db.query(`INSERT INTO gateway.workspaces (id, name, plan) VALUES ($1, 'Counts', 'pro')`, [
    `ws_${suffix}`,
  ]);
  await db.query(
    `INSERT INTO gateway.api_keys (id, workspace_id, scope, prefix, key_hash)
     VALUES ($1, $2, 'write', $3, $4)`,
    [`key_${suffix}`, `ws_${suffix}`, displayPrefix(key), hashApiKey(key)],
  );
  return { key, id: `key_${suffix}` };
}

/** `times` requests of the key through the gate; `/ping` ones count in the window only. */
async function use(key: string, times: number, ping = false): Promise<void> {
  for (let i = 0; i < times; i++) {
    expect((await gate.admit(key, !ping)).verdict).toBe('admitted');
  }
}

/** So that the requests and the read that counts them share a minute window. */
async function freshWindow(seconds = 3): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const ready = (expected: boolean) =>
  eventually(() => Promise.resolve(expect(connection.isReady()).toBe(expected)), {
    timeoutMs: 8_000,
  });

beforeAll(async () => {
  Logger.overrideLogger(false);
  redis = await startRedisServer();
  database = await createTestDatabase();
  await migrateGateway(database.url);
  config = loadGatewayConfig({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `t:${uniqueSuffix()}:`,
  });
  db = await gatewayDataSource(database.url, 4).initialize();
  connection = new RedisConnection(config);
  const store = new AccessStore(db);
  const ledger = new UsageLedger();
  gate = new AccessGate(
    connection,
    store,
    new AccessService(new AccessCache(connection, config), store),
    ledger,
    config,
  );
  flusher = new UsageFlusher(connection, db, ledger, config);
  counts = new RequestCounts(connection, db);
  await ready(true);
});

afterAll(async () => {
  connection?.client.disconnect();
  if (db?.isInitialized) await db.destroy();
  await database?.drop();
  await redis?.stop();
});

describe('RequestCounts', () => {
  it("reads each key's month and minute as the gate counted them, 0 for an unused key", async () => {
    const busy = await newKey();
    const idle = await newKey();
    await freshWindow();
    await use(busy.key, 4);
    await use(busy.key, 2, true);
    const read = await counts.of([busy.id, idle.id]);
    expect(Object.fromEntries(read)).toEqual({
      [busy.id]: { month: 4, minute: 6 },
      [idle.id]: { month: 0, minute: 0 },
    });
    expect((await counts.of([])).size).toBe(0);
  });

  it('takes the month from Postgres once Redis lost it, and knows no minute without Redis', async () => {
    const { key, id } = await newKey();
    await use(key, 3);
    await flusher.flush();
    // Counted in Redis only, then lost with it: Postgres holds the 3 flushed.
    await use(key, 2);
    expect((await counts.of([id])).get(id)?.month).toBe(5);

    await redis.restart();
    await ready(true);
    expect((await counts.of([id])).get(id)).toEqual({ month: 3, minute: 0 });

    await redis.stop();
    await ready(false);
    expect((await counts.of([id])).get(id)).toEqual({ month: 3, minute: null });
    await redis.restart();
    await ready(true);
  });
});
