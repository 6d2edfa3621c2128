import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { migrate } from './database';

/**
 * `node migrate.js --wait`, for every app: run no migration, wait until another process (a
 * Kubernetes Job, compose's `<app>-migrate`) has applied every one this build knows, so an
 * app container started after it never runs against an older schema.
 */
export interface MigrationWait {
  /** Give up (reject) after this long. */
  timeoutMs: number;
  /** Look again this often. */
  intervalMs: number;
  /** Each look that finds migrations pending (or no database) says so here. */
  log: (line: string) => void;
}

/** MIGRATE_WAIT_TIMEOUT_MS (default 5 minutes) and MIGRATE_WAIT_INTERVAL_MS (default 2 s). */
export function migrationWaitFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Omit<MigrationWait, 'log'> {
  const number = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) {
      throw new Error(`${name} must be a positive whole number of milliseconds, not "${raw}"`);
    }
    return Number(raw);
  };
  return {
    timeoutMs: number('MIGRATE_WAIT_TIMEOUT_MS', 300_000),
    intervalMs: number('MIGRATE_WAIT_INTERVAL_MS', 2_000),
  };
}

export async function waitForMigrations(
  dataSource: DataSource,
  schema: string,
  app: string,
  { timeoutMs, intervalMs, log }: MigrationWait,
): Promise<void> {
  const started = Date.now();
  try {
    for (;;) {
      const pending = await pendingMigrations(dataSource, schema).catch(
        (error: unknown) => `database not reachable: ${(error as Error).message}`,
      );
      if (Array.isArray(pending) && pending.length === 0) return;
      const reason = Array.isArray(pending)
        ? `${pending.length} pending: ${pending.join(', ')}`
        : pending;
      const waited = Date.now() - started;
      if (waited >= timeoutMs) {
        throw new Error(
          `${app} migrations still not applied after ${timeoutMs} ms (${reason}); ` +
            `is the migration job (migrate.js without --wait) running?`,
        );
      }
      log(
        JSON.stringify({
          app,
          msg: `waiting for ${app} migrations to be applied by the migration job`,
          reason,
          waited_ms: waited,
          timeout_ms: timeoutMs,
        }),
      );
      await sleep(Math.min(intervalMs, timeoutMs - waited));
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

/**
 * The names of the migrations not yet applied, or why that cannot be told yet. Read-only: the
 * migrations table is looked for first, since TypeORM's showMigrations() would create it.
 */
async function pendingMigrations(
  dataSource: DataSource,
  schema: string,
): Promise<string[] | string> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const table = `"${schema}"."migrations"`;
  const [found] = await dataSource.query<Array<{ present: boolean }>>(
    'SELECT to_regclass($1) IS NOT NULL AS present',
    [table],
  );
  if (!found?.present) return `no ${schema}.migrations table yet`;
  if (!(await dataSource.showMigrations())) return [];
  const applied = await dataSource.query<Array<{ name: string }>>(`SELECT name FROM ${table}`);
  const done = new Set(applied.map((row) => row.name));
  return dataSource.migrations
    .map((migration) => migration.name ?? migration.constructor.name)
    .filter((name) => !done.has(name));
}

/** What an app's migrate.js does with its data source and schema. */
export interface MigrateCli {
  app: string;
  schema: string;
  dataSource: () => DataSource;
}

/**
 * An app's migrate.js: `node migrate.js` runs its pending migrations, `node migrate.js --wait`
 * waits for them (MIGRATE_WAIT_TIMEOUT_MS, default 300000). One JSON line says what was done;
 * a failure says why and exits 1.
 */
export function runMigrateCli({ app, schema, dataSource }: MigrateCli): void {
  const run = async () => {
    if (process.argv.includes('--wait')) {
      await waitForMigrations(dataSource(), schema, app, {
        ...migrationWaitFromEnv(),
        log: (line) => console.log(line),
      });
      console.log(JSON.stringify({ app, migrations: 'up to date' }));
    } else {
      console.log(JSON.stringify({ app, migrations: await migrate(dataSource(), schema) }));
    }
  };
  run().catch((error: unknown) => {
    console.error(`${app} migrations failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
