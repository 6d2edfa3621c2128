// Postgres helpers every app shares: data sources, migrations, queryOne, retries, ids, and
// the activity table each app writes in its changes' transactions.
export * from './database';
export * from './migration-wait';
export * from './ids';
export * from './periodic-job';
export * from './retention-job';
export * from './activity-log';
export * from './activity-retention';
