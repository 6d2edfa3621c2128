import 'reflect-metadata';
import {
  migrate,
  runMigrateCli,
  waitForMigrations,
  type MigrationWait,
} from '@custodian/persistence';
import { loadWorkerConfig } from './config/worker-config';
import { DELIVERY_SCHEMA, workerDataSource } from './database/data-source';

export { migrationWaitFromEnv } from '@custodian/persistence';

/** Runs the webhook-worker's own migrations (endpoints, deliveries); each app migrates its own schema. */
export async function migrateWorker(databaseUrl: string): Promise<string[]> {
  return migrate(workerDataSource(databaseUrl, 1), DELIVERY_SCHEMA);
}

/** Resolves once the webhook-worker's schema has no pending migration; runs none itself. */
export async function waitForWorkerMigrations(
  databaseUrl: string,
  wait: MigrationWait,
): Promise<void> {
  return waitForMigrations(
    workerDataSource(databaseUrl, 1),
    DELIVERY_SCHEMA,
    'webhook-worker',
    wait,
  );
}

// `node migrate.js` migrates; `node migrate.js --wait` waits for another process to have done
// it (a Kubernetes Job, compose's `webhook-worker-migrate`).
if (require.main === module) {
  const { DATABASE_URL } = loadWorkerConfig();
  runMigrateCli({
    app: 'webhook-worker',
    schema: DELIVERY_SCHEMA,
    dataSource: () => workerDataSource(DATABASE_URL, 1),
  });
}
