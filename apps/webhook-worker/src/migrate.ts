import 'reflect-metadata';
import { migrate } from '@custodian/persistence';
import { loadWorkerConfig } from './config/worker-config';
import { DELIVERY_SCHEMA, workerDataSource } from './database/data-source';

/** Runs the webhook-worker's own migrations (endpoints, deliveries). */
export async function migrateWorker(databaseUrl: string): Promise<string[]> {
  return migrate(workerDataSource(databaseUrl, 1), DELIVERY_SCHEMA);
}

if (require.main === module) {
  migrateWorker(loadWorkerConfig().DATABASE_URL)
    .then((ran) => console.log(JSON.stringify({ app: 'webhook-worker', migrations: ran })))
    .catch((error: unknown) => {
      console.error(`webhook-worker migrations failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
