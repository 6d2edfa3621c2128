import type { DataSource } from 'typeorm';
import { observePool, startMetrics } from './metrics';

/** What pg's Pool, TypeORM's `driver.master` for Postgres, tells of itself. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** An app's metrics: its name on every series, Node's own metrics, its Postgres pool. */
export function startAppMetrics(app: string, db: DataSource): void {
  startMetrics(app);
  observePool(() => (db.driver as unknown as { master?: PgPool }).master);
}
