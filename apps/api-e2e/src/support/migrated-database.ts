import {
  DIST_ROOT,
  createTestDatabase,
  migratedTemplate,
  runNodeEntry,
  type TestDatabase,
} from '@custodian/testing';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const APPS = ['gateway', 'register', 'webhook-worker'];

/**
 * A fresh database for one stack with every app's schema: a copy of a template that each
 * app's own compiled migration (`node dist/apps/<app>/src/migrate.js`, as the Dockerfiles run
 * it) filled once for the current migrations, instead of three migration processes per test
 * file.
 */
export async function migratedDatabase(): Promise<TestDatabase> {
  const template = await migratedTemplate(migrationsKey(), migrateAll);
  return createTestDatabase({ template });
}

/** The apps migrate their own schemas, so they run side by side. */
async function migrateAll(url: string): Promise<void> {
  const runs = await Promise.all(
    APPS.map(async (app) => ({
      app,
      run: await runNodeEntry({
        entry: `apps/${app}/src/migrate.js`,
        env: { DATABASE_URL: url, LOG_LEVEL: 'silent' },
      }),
    })),
  );
  const failed = runs.filter(({ run }) => run.code !== 0);
  if (failed.length > 0) {
    throw new Error(
      failed
        .map(({ app, run }) => `${app} migrations failed (${run.code}): ${run.stderr}`)
        .join('\n'),
    );
  }
}

/** Changes whenever a compiled migration, data source or migrate entry point does. */
function migrationsKey(): string {
  const hash = createHash('sha256');
  for (const app of APPS) {
    const root = path.join(DIST_ROOT, 'apps', app, 'src');
    if (!existsSync(root)) throw new Error(`${root} does not exist: run npm run build`);
    const files = [
      'migrate.js',
      ...readdirSync(path.join(root, 'database'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.js'))
        .map((file) => path.join('database', file)),
    ].sort();
    for (const file of files) {
      hash.update(`${app}/${file}\n`);
      hash.update(readFileSync(path.join(root, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}
