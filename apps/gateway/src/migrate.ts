import 'reflect-metadata';
import {
  migrate,
  runMigrateCli,
  waitForMigrations,
  type MigrationWait,
} from '@custodian/persistence';
import { loadGatewayConfig } from './config/gateway-config';
import { GATEWAY_SCHEMA, gatewayDataSource } from './database/data-source';

export { migrationWaitFromEnv } from '@custodian/persistence';

/** Runs the gateway's own migrations (workspaces, plans, keys); each app migrates its own schema. */
export async function migrateGateway(databaseUrl: string): Promise<string[]> {
  return migrate(gatewayDataSource(databaseUrl, 1), GATEWAY_SCHEMA);
}

/** Resolves once the gateway's schema has no pending migration; runs none itself. */
export async function waitForGatewayMigrations(
  databaseUrl: string,
  wait: MigrationWait,
): Promise<void> {
  return waitForMigrations(gatewayDataSource(databaseUrl, 1), GATEWAY_SCHEMA, 'gateway', wait);
}

// `node migrate.js` migrates; `node migrate.js --wait` waits for another process to have done
// it (a Kubernetes Job, compose's `gateway-migrate`).
if (require.main === module) {
  const { DATABASE_URL } = loadGatewayConfig();
  runMigrateCli({
    app: 'gateway',
    schema: GATEWAY_SCHEMA,
    dataSource: () => gatewayDataSource(DATABASE_URL, 1),
  });
}
