import 'reflect-metadata';
import { migrate } from '@custodian/persistence';
import { loadRegisterConfig } from './config/register-config';
import { REGISTER_SCHEMA, registerDataSource } from './database/data-source';

/** Runs the register's own migrations; each app migrates its own schema. */
export async function migrateRegister(databaseUrl: string): Promise<string[]> {
  return migrate(registerDataSource(databaseUrl, 1), REGISTER_SCHEMA);
}

if (require.main === module) {
  migrateRegister(loadRegisterConfig().DATABASE_URL)
    .then((ran) => console.log(JSON.stringify({ app: 'register', migrations: ran })))
    .catch((error: unknown) => {
      console.error(`register migrations failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
