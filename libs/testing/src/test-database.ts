import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database on the real Postgres server for one test file; the caller runs the
 * apps' real migrations into it. Dropped (with its connections) afterwards.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `custodian_t_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A short random suffix for queue names and Redis prefixes, so test files never collide. */
export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}
