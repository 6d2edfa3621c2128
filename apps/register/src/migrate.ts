import 'reflect-metadata';
import {
  migrate,
  runMigrateCli,
  waitForMigrations,
  type MigrationWait,
} from '@custodian/persistence';
import { loadRegisterConfig } from './config/register-config';
import { REGISTER_SCHEMA, registerDataSource } from './database/data-source';

export { migrationWaitFromEnv } from '@custodian/persistence';

/** Runs the register's own migrations (assets, people, members); each app migrates its own schema. */
export async function migrateRegister(databaseUrl: string): Promise<string[]> {
  return migrate(registerDataSource(databaseUrl, 1), REGISTER_SCHEMA);
}

/** Resolves once the register's schema has no pending migration; runs none itself. */
export async function waitForRegisterMigrations(
  databaseUrl: string,
  wait: MigrationWait,
): Promise<void> {
  return waitForMigrations(registerDataSource(databaseUrl, 1), REGISTER_SCHEMA, 'register', wait);
}

// `node migrate.js` migrates; `node migrate.js --wait` waits for another process to have done
// it (a Kubernetes Job, compose's `register-migrate`).
if (require.main === module) {
  const { DATABASE_URL } = loadRegisterConfig();
  runMigrateCli({
    app: 'register',
    schema: REGISTER_SCHEMA,
    dataSource: () => registerDataSource(DATABASE_URL, 1),
  });
}
