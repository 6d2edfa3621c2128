import { DomainError } from '@custodian/contracts';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GatewayConfig } from '../config/gateway-config';
import { RedisConnection } from '../redis/redis.provider';
import { AccessCache } from './access-cache';
import { AccessStore } from './access-store';
import type { CacheRepairEntity } from './cache-repair.entity';

/**
 * Every change to keys, plans or limits goes through here, so that Postgres and the shared
 * key cache agree:
 * - the change runs in a transaction holding the workspace's row lock, and the cached keys of
 *   the workspace are rewritten before it commits, so two overlapping changes cannot leave
 *   the older one in Redis (a revoked key can never come back);
 * - if Redis cannot be written the change still commits (while Redis is down keys are read
 *   from Postgres anyway) and the workspace is queued in gateway.cache_repairs, which every
 *   gateway retries until Redis takes the rewrite.
 */
@Injectable()
export class AccessPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AccessPublisher');
  private timer: NodeJS.Timeout | null = null;
  private repairing: Promise<void> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly store: AccessStore,
    private readonly cache: AccessCache,
    private readonly redis: RedisConnection,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.repair(), this.config.CACHE_REPAIR_INTERVAL_MS);
    this.timer.unref();
    this.redis.client.on('ready', () => void this.repair());
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Runs `change` under the workspace lock, then republishes the workspace's keys. */
  async change<T>(workspaceId: string, change: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await lockWorkspace(tx, workspaceId);
      const result = await change(tx);
      await this.publish(tx, workspaceId);
      return result;
    });
  }

  /** Retries queued rewrites; concurrent calls share one pass. */
  repair(): Promise<void> {
    this.repairing ??= this.repairQueued().finally(() => (this.repairing = null));
    return this.repairing;
  }

  private async publish(tx: EntityManager, workspaceId: string): Promise<void> {
    try {
      await this.cache.overwrite(await this.store.byWorkspace(workspaceId, tx));
    } catch (error) {
      this.logger.warn(
        `Redis not updated for workspace ${workspaceId} (${(error as Error).message}); queued for repair`,
      );
      await tx.query(
        `INSERT INTO gateway.cache_repairs (workspace_id) VALUES ($1) ON CONFLICT DO NOTHING`,
        [workspaceId],
      );
    }
  }

  private async repairQueued(): Promise<void> {
    if (!this.redis.isReady()) return;
    try {
      const queued = await this.db.query<Array<Pick<CacheRepairEntity, 'workspace_id'>>>(
        `SELECT workspace_id FROM gateway.cache_repairs ORDER BY requested_at LIMIT 100`,
      );
      for (const { workspace_id: workspaceId } of queued) {
        await this.db.transaction(async (tx) => {
          await lockWorkspace(tx, workspaceId);
          await this.cache.overwrite(await this.store.byWorkspace(workspaceId, tx));
          await tx.query(`DELETE FROM gateway.cache_repairs WHERE workspace_id = $1`, [
            workspaceId,
          ]);
        });
      }
    } catch (error) {
      this.logger.warn(`cache repair deferred: ${(error as Error).message}`);
    }
  }
}

async function lockWorkspace(tx: EntityManager, workspaceId: string): Promise<void> {
  const rows = await tx.query<unknown[]>(
    `SELECT id FROM gateway.workspaces WHERE id = $1 FOR UPDATE`,
    [workspaceId],
  );
  if (rows.length === 0) throw new DomainError('not_found', `Workspace ${workspaceId} not found`);
}
