// Postgres helpers every app shares: data sources, migrations, queryOne, retries, ids.
export * from './database';
export * from './ids';
export * from './periodic-job';
export * from './retention-job';
