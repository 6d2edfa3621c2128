import 'reflect-metadata';
import { migrate } from '@custodian/persistence';
import { loadGatewayConfig } from './config/gateway-config';
import { GATEWAY_SCHEMA, gatewayDataSource } from './database/data-source';

/** Runs the gateway's own migrations (workspaces, plans, keys). */
export async function migrateGateway(databaseUrl: string): Promise<string[]> {
  return migrate(gatewayDataSource(databaseUrl, 1), GATEWAY_SCHEMA);
}

if (require.main === module) {
  migrateGateway(loadGatewayConfig().DATABASE_URL)
    .then((ran) => console.log(JSON.stringify({ app: 'gateway', migrations: ran })))
    .catch((error: unknown) => {
      console.error(`gateway migrations failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
