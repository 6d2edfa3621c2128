import path from 'node:path';
import type { AppProcess } from './app-process';

/** Preload for `AppProcess.start` that counts an app's Postgres work (see the .js file). */
export const POSTGRES_PROBE = path.join(__dirname, 'postgres-probe.js');

export interface PostgresCounts {
  /** Queries sent by any pg client of the app (TypeORM's included). */
  queries: number;
  /** Clients handed out by the app's pools. */
  checkouts: number;
}

/** The counts since the app started; compare two readings to count what happened between. */
export function postgresCounts(app: AppProcess): Promise<PostgresCounts> {
  return app.ask<PostgresCounts>('postgres');
}
