// Postgres helpers every app shares: data sources, migrations, queryOne, retries, ids.
export * from './database';
export * from './ids';
export * from './retention-job';
