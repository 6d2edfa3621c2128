import { createTestDatabase, type TestDatabase } from '@custodian/testing';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from './database';

/** What a transaction whose connection Postgres drops mid-way fails with, on a real server. */
describe('isDatabaseUnavailable on a real Postgres', () => {
  let database: TestDatabase;
  let db: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await new DataSource({ type: 'postgres', url: database.url, poolSize: 3 }).initialize();
  }, 30_000);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
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
