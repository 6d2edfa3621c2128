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
 * A fresh database on the real Postgres server for one test file: empty (the caller runs the
 * apps' real migrations into it), or a copy of `template` (see `migratedTemplate`). Dropped
 * (with its connections) afterwards.
 */
export async function createTestDatabase(
  options: { template?: string } = {},
): Promise<TestDatabase> {
  const name = `custodian_t_${randomBytes(6).toString('hex')}`;
  const template = options.template ? ` TEMPLATE ${options.template}` : '';
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}${template}`));
  return {
    url: databaseUrl(name),
    name,
    drop: async () => {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * The name of a database that `migrate` has filled, made once per `key` on this server and
 * kept: test files copy it (`createTestDatabase({ template })`, a file copy inside Postgres)
 * instead of each running every migration. The key must change when the migrations do (a hash
 * of their compiled files); templates of old keys are left unused, and `custodian_tpl_*`
 * databases may be dropped whenever no tests run. Concurrent callers (parallel test files,
 * other checkouts on the same server) wait for the first on an advisory lock.
 */
export async function migratedTemplate(
  key: string,
  migrate: (url: string) => Promise<void>,
): Promise<string> {
  const name = `custodian_tpl_${key}`;
  return withAdmin(async (client) => {
    if (await databaseExists(client, name)) return name;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_LOCK]);
    try {
      if (await databaseExists(client, name)) return name;
      // Built under another name and renamed when complete: a template that exists is whole.
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      await migrate(databaseUrl(building));
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_LOCK]);
    }
  });
}

const TEMPLATE_LOCK = 'custodian_tpl';

async function databaseExists(client: Client, name: string): Promise<boolean> {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return found.rowCount === 1;
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
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
