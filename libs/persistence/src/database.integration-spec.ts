import { DataSource } from 'typeorm';
import { createAppDataSource, isDatabaseUnavailable } from './database';

// The server's own database: these tests create nothing (and libs/testing depends on this lib).
const URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** What a transaction whose connection Postgres drops mid-way fails with, on a real server. */
describe('isDatabaseUnavailable on a real Postgres', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: URL, poolSize: 3 }).initialize();
  }, 30_000);

  afterAll(async () => {
    await db?.destroy();
  });

  it('takes a transaction whose connection was terminated mid-way for Postgres being away', async () => {
    const failure = await db
      .transaction(async (tx) => {
        const [row] = await tx.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid');
        // As a Postgres restart or outage ends the session under a running transaction.
        await db.query('SELECT pg_terminate_backend($1)', [row?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await tx.query('SELECT 1');
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).not.toBeNull();
    // Anything else becomes a 500 the client does not retry (seen in `npm run faults`).
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });

  it('does not take a bad query for Postgres being away', async () => {
    const failure = await db.query('SELECT * FROM no_such_table').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure)).toBe(false);
  });
});

describe('createAppDataSource on a real Postgres', () => {
  it('opens sessions with JIT off and the pool-wide statement timeout', async () => {
    const db = await createAppDataSource({
      url: URL,
      schema: 'public',
      migrations: [],
      applicationName: 'custodian-test',
      poolSize: 1,
      statementTimeoutMs: 1234,
    }).initialize();
    try {
      const [settings] = await db.query<Array<{ jit: string; timeout: string }>>(
        `SELECT current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout`,
      );
      expect(settings).toEqual({ jit: 'off', timeout: '1234ms' });
    } finally {
      await db.destroy();
    }
  });
});
