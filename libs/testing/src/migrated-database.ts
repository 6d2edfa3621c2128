import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface MigratedDatabase {
  database: TestDatabase;
  /** Initialized on the fresh database, after the app's migrations ran. */
  db: DataSource;
  /** Closes the data source, then drops the database. */
  close(): Promise<void>;
}

/**
 * A fresh database with one app's real migrations run, and a data source open on it: what an
 * integration test of that app's SQL starts from. The app passes its own `migrate` and data
 * source factory, so this library knows no app's schema.
 */
export async function createMigratedDatabase(
  migrate: (url: string) => Promise<unknown>,
  open: (url: string) => DataSource,
): Promise<MigratedDatabase> {
  const database = await createTestDatabase();
  try {
    await migrate(database.url);
    const db = await open(database.url).initialize();
    return {
      database,
      db,
      close: async () => {
        if (db.isInitialized) await db.destroy();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
