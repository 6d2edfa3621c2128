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
import { AccessStore, queueRepair, queuedRepairs, repairDone } from './access-store';
import type { WorkspaceChangePublisher } from '../workspaces/workspace-change-publisher';
import { lockWorkspace } from '../workspaces/workspace.store';

/**
 * Every change to keys, plans or limits goes through here, so that Postgres and the shared
 * key cache agree:
 * - the change runs in a transaction holding the workspace's row lock and queues the
 *   workspace in gateway.cache_repairs in that same transaction;
 * - once it has committed, the workspace's keys are read again and written to Redis under the
 *   same row lock, and the queue entry is removed. Redis therefore only ever holds committed
 *   state (a change that rolls back, or fails at commit, grants nothing), and two overlapping
 *   changes cannot leave the older one in Redis: each rewrite reads what was committed last
 *   (a revoked key can never come back);
 * - if Redis cannot be written (or the gateway dies in between) the entry stays queued, and
 *   every gateway retries it until Redis takes the rewrite; while Redis is down keys are read
 *   from Postgres anyway.
 */
@Injectable()
export class AccessPublisher
  implements WorkspaceChangePublisher, OnApplicationBootstrap, OnApplicationShutdown
{
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

  /** Runs `change` under the workspace lock, then, once committed, republishes its keys. */
  async change<T>(workspaceId: string, change: (tx: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(async (tx) => {
      await lockWorkspace(tx, workspaceId);
      const changed = await change(tx);
      await queueRepair(tx, workspaceId);
      return changed;
    });
    try {
      await this.publish(workspaceId);
    } catch (error) {
      this.logger.warn(
        `Redis not updated for workspace ${workspaceId} (${(error as Error).message}); queued for repair`,
      );
    }
    return result;
  }

  /** Retries queued rewrites; concurrent calls share one pass. */
  repair(): Promise<void> {
    this.repairing ??= this.repairQueued().finally(() => (this.repairing = null));
    return this.repairing;
  }

  /**
   * Writes the workspace's committed keys to Redis under its row lock and takes it off the
   * repair queue; throws (leaving it queued) if Redis does not take the write.
   */
  private async publish(workspaceId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await lockWorkspace(tx, workspaceId);
      await this.cache.overwrite(await this.store.byWorkspace(workspaceId, tx));
      await repairDone(tx, workspaceId);
    });
  }

  private async repairQueued(): Promise<void> {
    if (!this.redis.isReady()) return;
    try {
      const queued = await queuedRepairs(this.db);
      for (const { workspace_id: workspaceId } of queued) await this.publish(workspaceId);
    } catch (error) {
      this.logger.warn(`cache repair deferred: ${(error as Error).message}`);
    }
  }
}
