import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module';
import { WorkspaceChangePublisher } from '../workspaces/workspace-change-publisher';
import { AccessCache } from './access-cache';
import { AccessPublisher } from './access-publisher';
import { AccessStore } from './access-store';
import { AccessService } from './access.service';

/**
 * API keys as the rest of the gateway sees them: a raw key resolved to its access record
 * (checksum, shared Redis cache, Postgres), and every change to keys, plans or limits
 * published to that cache. AccessPublisher is also WorkspacesService's WorkspaceChangePublisher:
 * a plan or limits change reaches the cached keys through it.
 */
@Module({
  imports: [RedisModule],
  providers: [
    AccessCache,
    AccessStore,
    AccessService,
    AccessPublisher,
    { provide: WorkspaceChangePublisher, useExisting: AccessPublisher },
  ],
  exports: [AccessCache, AccessStore, AccessService, AccessPublisher, WorkspaceChangePublisher],
})
export class ApiKeysModule {}
