import { createTestDatabase, type TestDatabase } from '@custodian/testing';
import { Client } from 'pg';
import { migrateGateway, migrationWaitFromEnv, waitForGatewayMigrations } from './migrate';

/**
 * `migrate.js --wait`, the initContainer of each Deployment (deploy/kubernetes): it runs no
 * migration, and lets the app start only once the migration Job has applied them all. The
 * three apps' migrate.ts share this code; the gateway's is tested here.
 */
describe('waitForGatewayMigrations (migrate.js --wait)', () => {
  const databases: TestDatabase[] = [];
  const freshDatabase = async (): Promise<TestDatabase> => {
    const database = await createTestDatabase();
    databases.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('waits, saying why, until another process has migrated, and runs nothing itself', async () => {
    const database = await freshDatabase();
    const lines: string[] = [];
    const waiting = waitForGatewayMigrations(database.url, {
      timeoutMs: 30_000,
      intervalMs: 50,
      log: (line) => lines.push(line),
    });
    let settled = false;
    void waiting.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(settled).toBe(false);
    expect(await schemaExists(database.url, 'gateway')).toBe(false);
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      app: 'gateway',
      reason: 'no gateway.migrations table yet',
      timeout_ms: 30_000,
    });

    await migrateGateway(database.url);
    await expect(waiting).resolves.toBeUndefined();
  }, 60_000);

  it('resolves at once, without a line, on a database that has every migration', async () => {
    const database = await freshDatabase();
    await migrateGateway(database.url);
    const lines: string[] = [];
    await waitForGatewayMigrations(database.url, {
      timeoutMs: 5_000,
      intervalMs: 50,
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual([]);
  }, 60_000);

  it('names the pending migrations while some are not applied', async () => {
    const database = await freshDatabase();
    await migrateGateway(database.url);
    await withClient(database.url, (client) =>
      client.query(`DELETE FROM gateway.migrations WHERE name = 'OutboxContext1763980000000'`),
    );
    const lines: string[] = [];
    await expect(
      waitForGatewayMigrations(database.url, {
        timeoutMs: 300,
        intervalMs: 50,
        log: (line) => lines.push(line),
      }),
    ).rejects.toThrow(
      'gateway migrations still not applied after 300 ms (1 pending: OutboxContext1763980000000)',
    );
    expect(JSON.parse(lines[0]!)).toMatchObject({
      reason: '1 pending: OutboxContext1763980000000',
    });
  }, 60_000);

  it('gives up after its timeout when the database cannot be reached', async () => {
    const database = await freshDatabase();
    const missing = database.url.replace(/\/[^/]+$/, '/custodian_no_such_database');
    const lines: string[] = [];
    await expect(
      waitForGatewayMigrations(missing, {
        timeoutMs: 300,
        intervalMs: 50,
        log: (line) => lines.push(line),
      }),
    ).rejects.toThrow(
      /gateway migrations still not applied after 300 ms \(database not reachable: /,
    );
    expect(lines.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('migrationWaitFromEnv', () => {
  it('defaults to five minutes, looking every two seconds', () => {
    expect(migrationWaitFromEnv({})).toEqual({ timeoutMs: 300_000, intervalMs: 2_000 });
  });

  it('takes MIGRATE_WAIT_TIMEOUT_MS and MIGRATE_WAIT_INTERVAL_MS, and refuses nonsense', () => {
    expect(
      migrationWaitFromEnv({ MIGRATE_WAIT_TIMEOUT_MS: '60000', MIGRATE_WAIT_INTERVAL_MS: '500' }),
    ).toEqual({ timeoutMs: 60_000, intervalMs: 500 });
    expect(() => migrationWaitFromEnv({ MIGRATE_WAIT_TIMEOUT_MS: '5m' })).toThrow(
      'MIGRATE_WAIT_TIMEOUT_MS must be a positive whole number of milliseconds, not "5m"',
    );
  });
});

async function schemaExists(url: string, schema: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    return found.rowCount === 1;
  });
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
