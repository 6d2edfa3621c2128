import { ActivityLog } from '@custodian/persistence';
import { AmqpConnection, AppliedWrites, OutboxWriter, RpcClient } from '@custodian/messaging';
import { DomainError, type EffectiveLimits } from '@custodian/contracts';
import { PLAN_CATALOG } from '@custodian/plans';
import {
  createTestDatabase,
  eventually,
  uniqueSuffix,
  type TestDatabase,
} from '@custodian/testing';
import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { loadGatewayConfig, type GatewayConfig } from '../config/gateway-config';
import { gatewayDataSource } from '../database/data-source';
import { hashApiKey } from './api-key-format';
import { KeysService } from './keys.service';
import { migrateGateway } from '../migrate';
import { RedisConnection } from '../redis/redis.provider';
import { RegisterAdminClient } from '../register-client/register-admin-client';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AccessCache } from './access-cache';
import { AccessPublisher } from './access-publisher';
import type { AccessRecord } from '../access/access-record';
import { AccessStore } from './access-store';
import { AccessService } from './access.service';

jest.setTimeout(15_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const suffix = uniqueSuffix();
const prefix = `t:${suffix}:`;

let database: TestDatabase;
let dataSource: DataSource;
let config: GatewayConfig;
let redis: RedisConnection;
/** A plain connection without the prefix, to look at what the cache wrote. */
let inspector: Redis;
let store: AccessStore;
let cache: AccessCache;
let access: AccessService;
let workspaces: WorkspacesService;
let keys: KeysService;
let publisher: AccessPublisher;
/** Every SQL statement sent through the data source since the last reset. */
const queries: string[] = [];

async function rejection(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected the key to be refused');
}

async function newWorkspaceWithKey(plan: 'pro' | 'business' = 'pro') {
  const workspace = await workspaces.create({ name: `Access ${suffix}`, plan });
  const key = await keys.create({ workspace: workspace.id, scope: 'write', name: 'test' });
  return { workspace, key, hash: hashApiKey(key.key) };
}

async function cached(hash: string): Promise<AccessRecord | null> {
  const raw = await inspector.get(`${prefix}key:${hash}`);
  return raw === null ? null : (JSON.parse(raw) as AccessRecord);
}

beforeAll(async () => {
  Logger.overrideLogger(false);
  database = await createTestDatabase();
  await migrateGateway(database.url);
  config = loadGatewayConfig({
    REDIS_PREFIX: prefix,
    DATABASE_URL: database.url,
    REDIS_URL,
  });
  dataSource = await gatewayDataSource(database.url, 2).initialize();
  const query = dataSource.query.bind(dataSource);
  // EntityManager.query passes its transaction's query runner as the third argument.
  dataSource.query = ((sql: string, ...rest: [unknown[]?, QueryRunner?]) => {
    queries.push(sql);
    return query(sql, ...rest);
  }) as DataSource['query'];

  redis = new RedisConnection(config);
  inspector = new Redis(REDIS_URL);
  await eventually(() => Promise.resolve().then(() => expect(redis.isReady()).toBe(true)));

  store = new AccessStore(dataSource);
  cache = new AccessCache(redis, config);
  access = new AccessService(cache, store);
  publisher = new AccessPublisher(dataSource, store, cache, redis, config);
  workspaces = new WorkspacesService(
    dataSource,
    publisher,
    new OutboxWriter('gateway'),
    // Never connected: no workspace here has an owner.
    new RegisterAdminClient(
      new RpcClient(new AmqpConnection({ url: config.RABBITMQ_URL, name: 'unused' })),
      config,
    ),
  );
  keys = new KeysService(
    dataSource,
    workspaces,
    publisher,
    new ActivityLog('gateway'),
    new AppliedWrites(dataSource, 'gateway'),
  );
});

beforeEach(() => {
  queries.length = 0;
});

afterAll(async () => {
  if (inspector) {
    const created = await inspector.keys(`${prefix}*`);
    if (created.length > 0) await inspector.del(...created);
    inspector.disconnect();
  }
  redis?.client.disconnect();
  if (dataSource?.isInitialized) await dataSource.destroy();
  await database?.drop();
});

describe('AccessService against Postgres and Redis', () => {
  it('resolves a new key from Postgres and fills the Redis cache', async () => {
    const { workspace, key, hash } = await newWorkspaceWithKey();
    expect(await cached(hash)).toBeNull();
    queries.length = 0;

    const record = await access.resolve(key.key);

    expect(record).toEqual({
      keyId: key.id,
      keyName: key.name,
      prefix: key.prefix,
      scope: 'write',
      revoked: false,
      workspaceId: workspace.id,
      workspaceName: `Access ${suffix}`,
      plan: 'pro',
      apiAccess: true,
      limits: PLAN_CATALOG.pro.limits,
    });
    expect(queries).toHaveLength(1);
    expect(await cached(hash)).toEqual(record);
    const ttl = await inspector.ttl(`${prefix}key:${hash}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(config.KEY_CACHE_TTL_SECONDS);
  });

  it('answers a second resolve from Redis without a Postgres query', async () => {
    const { key } = await newWorkspaceWithKey();
    const first = await access.resolve(key.key);
    queries.length = 0;

    const second = await access.resolve(key.key);

    expect(second).toEqual(first);
    expect(queries).toEqual([]);
  });

  it('refuses a malformed key without asking Redis or Postgres', async () => {
    const { key } = await newWorkspaceWithKey();
    queries.length = 0;
    const mistyped = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;

    const error = await rejection(access.resolve(mistyped));

    expect(error.code).toBe('unauthenticated');
    expect(error.message).toBe('API key is malformed');
    expect(queries).toEqual([]);
    expect(await cached(hashApiKey(mistyped))).toBeNull();
  });

  it('refuses a well-formed key that does not exist, and caches nothing for it', async () => {
    const { key, hash } = await newWorkspaceWithKey();
    await dataSource.query(`DELETE FROM gateway.api_keys WHERE id = $1`, [key.id]);
    queries.length = 0;

    const error = await rejection(access.resolve(key.key));

    expect(error.code).toBe('unauthenticated');
    expect(error.message).toBe('API key is not valid or has been revoked');
    expect(queries).toHaveLength(1);
    expect(await cached(hash)).toBeNull();
  });

  it('refuses a revoked key on the next resolve even though the cache was warm', async () => {
    const { key, hash } = await newWorkspaceWithKey();
    await access.resolve(key.key);
    expect((await cached(hash))?.revoked).toBe(false);

    const revoked = await keys.revoke({ id: key.id });
    expect(revoked.id).toBe(key.id);
    expect((await cached(hash))?.revoked).toBe(true);
    queries.length = 0;

    const error = await rejection(access.resolve(key.key));
    expect(error.code).toBe('unauthenticated');
    expect(error.message).toBe('API key is not valid or has been revoked');
    // The refusal came from the rewritten cache entry, not from Postgres.
    expect(queries).toEqual([]);
  });

  it('does not let a fill that read Postgres before a revocation put the key back', async () => {
    const { key, hash } = await newWorkspaceWithKey();
    // A resolve on a cold cache reads Postgres ...
    const stale = await store.byHash(hash);
    expect(stale?.revoked).toBe(false);
    expect(await cached(hash)).toBeNull();
    // ... the key is revoked meanwhile ...
    await keys.revoke({ id: key.id });
    // ... and only then does that resolve's fill reach Redis.
    await cache.fill(hash, stale!);

    expect((await cached(hash))?.revoked).toBe(true);
    const error = await rejection(access.resolve(key.key));
    expect(error.code).toBe('unauthenticated');
  });

  it('applies a plan change to free on the very next resolve', async () => {
    const { workspace, key } = await newWorkspaceWithKey('business');
    expect((await access.resolve(key.key)).apiAccess).toBe(true);

    await workspaces.changePlan({ workspace: workspace.id, plan: 'free' });
    queries.length = 0;

    const record = await access.resolve(key.key);
    expect(record.plan).toBe('free');
    expect(record.apiAccess).toBe(false);
    expect(record.limits).toEqual(PLAN_CATALOG.free.limits);
    expect(queries).toEqual([]);
  });

  it('writes the cache only from committed state: a change is visible in Postgres when Redis gets it', async () => {
    const { workspace } = await newWorkspaceWithKey('pro');
    const observer = new Client({ connectionString: database.url });
    await observer.connect();
    const seen: string[] = [];
    const overwrite = jest.spyOn(cache, 'overwrite').mockImplementation(async (records) => {
      // What another connection (another gateway) sees of the workspace at that moment.
      const { rows } = await observer.query<{ plan: string }>(
        `SELECT plan FROM gateway.workspaces WHERE id = $1`,
        [workspace.id],
      );
      seen.push(rows[0]?.plan ?? 'none');
      return AccessCache.prototype.overwrite.call(cache, records);
    });
    try {
      await workspaces.changePlan({ workspace: workspace.id, plan: 'business' });
    } finally {
      overwrite.mockRestore();
      await observer.end();
    }
    expect(seen).toEqual(['business']);
  });

  it('puts nothing in the cache for a change that rolls back', async () => {
    const { workspace, key } = await newWorkspaceWithKey('pro');
    await access.resolve(key.key);
    const overwrite = jest.spyOn(cache, 'overwrite');
    await expect(
      publisher.change(workspace.id, async (tx) => {
        await tx.query(`UPDATE gateway.workspaces SET plan = 'business' WHERE id = $1`, [
          workspace.id,
        ]);
        throw new DomainError('conflict', 'changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(overwrite).not.toHaveBeenCalled();
    overwrite.mockRestore();
    expect((await access.resolve(key.key)).plan).toBe('pro');
  });

  it('applies limit overrides on the very next resolve, for every key of the workspace', async () => {
    const { workspace, key } = await newWorkspaceWithKey();
    const other = await keys.create({ workspace: workspace.id, scope: 'read' });
    await access.resolve(key.key);
    await access.resolve(other.key);

    await workspaces.changeLimits({
      workspace: workspace.id,
      assets: '20000',
      monthly_quota: 'unlimited',
    });

    const expected: EffectiveLimits = {
      ...PLAN_CATALOG.pro.limits,
      assets: 20_000,
      monthlyQuota: null,
    };
    queries.length = 0;
    expect((await access.resolve(key.key)).limits).toEqual(expected);
    const read = await access.resolve(other.key);
    expect(read.limits).toEqual(expected);
    expect(read.scope).toBe('read');
    expect(queries).toEqual([]);
  });

  it('never lets an overlapping plan change put a revoked key back in the cache', async () => {
    for (let round = 0; round < 10; round++) {
      const { workspace, key, hash } = await newWorkspaceWithKey();
      await access.resolve(key.key);
      // Both rewrite the workspace's cached keys; the workspace lock orders them.
      await Promise.all([
        workspaces.changePlan({ workspace: workspace.id, plan: 'business' }),
        keys.revoke({ id: key.id }),
        workspaces.changeLimits({ workspace: workspace.id, assets: '7' }),
      ]);
      const record = await cached(hash);
      expect(record).toMatchObject({ revoked: true, plan: 'business' });
      expect(record?.limits.assets).toBe(7);
    }
  });

  describe('with Redis unreachable', () => {
    let downRedis: RedisConnection;
    let downAccess: AccessService;
    let downCache: AccessCache;

    beforeAll(() => {
      const downConfig = loadGatewayConfig({
        REDIS_PREFIX: `${prefix}down:`,
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6390',
      });
      downRedis = new RedisConnection(downConfig);
      downCache = new AccessCache(downRedis, downConfig);
      downAccess = new AccessService(downCache, store);
    });

    afterAll(async () => {
      downRedis.client.disconnect();
      // ioredis arms a 2 s timer to destroy the (already refused) socket on disconnect and
      // never clears it; let it run out so Jest exits cleanly.
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    });

    it('resolves from Postgres', async () => {
      const { workspace, key, hash } = await newWorkspaceWithKey();
      expect(downRedis.isReady()).toBe(false);
      expect(await downCache.get(hash)).toBeUndefined();
      queries.length = 0;

      const started = Date.now();
      const record = await downAccess.resolve(key.key);

      expect(Date.now() - started).toBeLessThan(1_000);
      expect(record.keyId).toBe(key.id);
      expect(record.workspaceId).toBe(workspace.id);
      expect(record.apiAccess).toBe(true);
      expect(queries).toHaveLength(1);
    });

    it('still refuses a revoked key', async () => {
      const { key } = await newWorkspaceWithKey();
      await keys.revoke({ id: key.id });

      const error = await rejection(downAccess.resolve(key.key));
      expect(error.code).toBe('unauthenticated');
      expect(error.message).toBe('API key is not valid or has been revoked');
    });

    it('commits a revocation it could not push to the cache, and repairs the cache later', async () => {
      const { key } = await newWorkspaceWithKey();
      const hash = hashApiKey(key.key);
      await access.resolve(key.key);
      expect((await cache.get(hash))?.revoked).toBe(false);

      const downPublisher = new AccessPublisher(dataSource, store, downCache, downRedis, config);
      const downKeys = new KeysService(
        dataSource,
        workspaces,
        downPublisher,
        new ActivityLog('gateway'),
        new AppliedWrites(dataSource, 'gateway'),
      );
      await expect(downKeys.revoke({ id: key.id })).resolves.toMatchObject({ id: key.id });

      // Postgres has it (a gateway without Redis refuses the key from there) and the
      // workspace is queued; the shared cache is still stale until a gateway repairs it.
      const queued = () =>
        dataSource.query<Array<{ workspace_id: string }>>(
          `SELECT workspace_id FROM gateway.cache_repairs WHERE workspace_id = $1`,
          [key.workspace_id],
        );
      expect(await queued()).toHaveLength(1);
      expect((await cache.get(hash))?.revoked).toBe(false);

      await publisher.repair();
      expect((await cache.get(hash))?.revoked).toBe(true);
      expect(await queued()).toHaveLength(0);
      expect((await rejection(access.resolve(key.key))).code).toBe('unauthenticated');
    });
  });
});
