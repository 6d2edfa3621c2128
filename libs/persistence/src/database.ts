import { DataSource, type EntitySchema, type MigrationInterface } from 'typeorm';

export interface AppDataSourceOptions {
  url: string;
  /** Each app owns one schema; its migrations table lives inside it. */
  schema: string;
  migrations: Array<new () => MigrationInterface>;
  applicationName: string;
  poolSize?: number;
  /**
   * The app's entity classes (and entity schemas of shared tables such as the outbox): the
   * one source of its row types. Nothing synchronizes them (`synchronize: false`); each app's
   * schema-drift test compares them with its migrations.
   */
  entities?: Array<(new () => object) | EntitySchema>;
  /**
   * The most any statement, and any wait for a lock, may take on this pool (ms): a query no
   * caller waits for any more is cancelled rather than left holding a connection. A write
   * bound to a caller's deadline sets a tighter one for its own transaction.
   */
  statementTimeoutMs?: number;
}

export function createAppDataSource(options: AppDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    migrations: options.migrations,
    entities: options.entities ?? [],
    applicationName: options.applicationName,
    poolSize: options.poolSize ?? 10,
    extra: {
      connectionTimeoutMillis: 5_000,
      // No JIT: it pays off for analytics, but a count over a large workspace crossed its cost
      // threshold and spent ~115 ms compiling for a 1.5 s statement (docs/adr/0014).
      options: '-c jit=off',
      ...(options.statementTimeoutMs === undefined
        ? {}
        : {
            statement_timeout: options.statementTimeoutMs,
            lock_timeout: options.statementTimeoutMs,
          }),
    },
  });
}

/**
 * Runs an app's pending migrations. The schema is created first because TypeORM puts its
 * migrations table in the schema before any migration has run.
 */
export async function migrate(dataSource: DataSource, schema: string): Promise<string[]> {
  const wasInitialized = dataSource.isInitialized;
  if (!wasInitialized) {
    await ensureDatabase(String((dataSource.options as { url?: string }).url));
    await dataSource.initialize();
  }
  try {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const ran = await dataSource.runMigrations({ transaction: 'each' });
    return ran.map((migration) => migration.name);
  } finally {
    if (!wasInitialized) await dataSource.destroy();
  }
}

/** Postgres error code of a unique violation. */
export const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } })
    .driverError;
  const pgError = driverError ?? (error as { code?: string; constraint?: string });
  return (
    pgError?.code === UNIQUE_VIOLATION &&
    (constraint === undefined || pgError.constraint === constraint)
  );
}

/** Postgres error code of a foreign key violation (a row still referenced, or gone). */
export const FOREIGN_KEY_VIOLATION = '23503';

export function isForeignKeyViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } }).driverError;
  return (driverError ?? (error as { code?: string }))?.code === FOREIGN_KEY_VIOLATION;
}

/**
 * Creates the database named in the URL when it does not exist yet, so that a fresh machine
 * needs no manual `createdb` before the first migration.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const { Client } = await import('pg');
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client
        .query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`)
        .catch((error: unknown) => {
          // Another app's migration created it a moment ago.
          if ((error as { code?: string }).code !== '42P04') throw error;
        });
    }
  } finally {
    await client.end();
  }
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** True when Postgres could not be reached (down, restarting, pool exhausted), not a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string; driverError?: { code?: string } };
  const code = candidate?.driverError?.code ?? candidate?.code;
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  // TypeORM's answer to a query in a transaction whose connection Postgres has dropped.
  if ((error as { name?: string } | null)?.name === 'QueryRunnerProviderAlreadyReleasedError') {
    return true;
  }
  const message = candidate?.message ?? '';
  return (
    message.includes('timeout exceeded when trying to connect') ||
    message.includes('Connection terminated')
  );
}

/**
 * Runs a transaction again when Postgres aborted it for a deadlock or a serialization
 * failure: the work is then safe to repeat, and the client should not see a 500 for it.
 */
export async function retryTransaction<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code =
        (error as { driverError?: { code?: string }; code?: string }).driverError?.code ??
        (error as { code?: string }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

/** What runs a statement: a DataSource, an EntityManager or a transaction's manager. */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/**
 * The rows of a statement. TypeORM's Postgres driver answers UPDATE and DELETE with
 * `[rows, affectedCount]` and everything else with the rows; callers need not care which.
 */
export async function queryRows<T>(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<T[]> {
  const result = await db.query<unknown>(sql, parameters);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/**
 * Deletes the rows of `table` that match `where` (parameters `$1`...), `batch` at a time (by
 * its `key` column) so that no transaction runs long or locks much; returns how many went.
 * Retention jobs use it;
 * `where` should follow an index, since every batch looks the rows up again.
 */
export async function deleteInBatches(
  db: Queryable,
  table: string,
  where: string,
  parameters: unknown[],
  batch = 5_000,
  key = 'id',
): Promise<number> {
  let deleted = 0;
  for (;;) {
    // TypeORM's Postgres driver answers a DELETE with [rows, affectedCount].
    const [, count] = await db.query<[unknown[], number]>(
      `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${batch})`,
      parameters,
    );
    deleted += count;
    if (count < batch) return deleted;
  }
}

/**
 * The one row a statement must return (an INSERT ... RETURNING, an upsert, a row locked a moment
 * ago). No row is a bug in the statement, so it throws there, naming the statement, instead of
 * letting `undefined` travel on.
 */
export async function queryOne<T>(
  db: Queryable,
  sql: string,
  parameters: unknown[] = [],
): Promise<T> {
  const [row] = await queryRows<T>(db, sql, parameters);
  if (row === undefined) {
    throw new Error(`expected a row from: ${sql.trim().split('\n')[0]?.slice(0, 80) ?? sql}`);
  }
  return row;
}

/**
 * The expression of a CHECK that a text column holds one of `values` (`status IN ('a', 'b')`),
 * for an entity's `@Check`, so the allowed values come from the same list as the contract's
 * type; the schema-drift test compares it with the migration's constraint.
 */
export function checkOneOf(column: string, values: readonly string[]): string {
  const list = values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ');
  return `${column} IN (${list})`;
}

/**
 * An app's serving pool, initialized once Postgres answers: while it cannot be reached (down,
 * starting, a DNS name not there yet) each attempt's pool is closed and another made after a
 * backoff (200 ms doubling to 5 s), forever, as an orchestrator's restarts would, but without
 * the restart. The app's start waits here; /health is not served, so it is not ready.
 */
export async function initializeWhenReachable(
  make: () => DataSource,
  log: (message: string) => void,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<DataSource> {
  for (let attempt = 0; ; attempt++) {
    const dataSource = make();
    try {
      return await dataSource.initialize();
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
      if (attempt % 10 === 0) {
        log(`Postgres not reachable at start (${(error as Error).message}); trying again`);
      }
      await wait(Math.min(5_000, 200 * 2 ** Math.min(attempt, 5)));
    }
  }
}
