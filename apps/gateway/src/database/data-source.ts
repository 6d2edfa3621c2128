import { appliedRequestsEntity, outboxEntity } from '@custodian/messaging';
import { activityEntity, createAppDataSource } from '@custodian/persistence';
import type { DataSource } from 'typeorm';
import { CreateActivity1763960000000 } from './migrations/1763960000000-CreateActivity';
import { CacheRepairEntity } from '../keys/cache-repair.entity';
import { ApiKeyEntity } from '../keys/api-key.entity';
import { KeyUsageEntity } from '../limits/key-usage.entity';
import { PlanEntity } from '../workspaces/plan.entity';
import { WorkspaceEntity } from '../workspaces/workspace.entity';
import { CreateWorkspacesAndKeys1763770000000 } from './migrations/1763770000000-CreateWorkspacesAndKeys';
import { CreateUsageAndOutbox1763780000000 } from './migrations/1763780000000-CreateUsageAndOutbox';
import { IndexPublishedOutbox1763800000000 } from './migrations/1763800000000-IndexPublishedOutbox';
import { CreateCacheRepairs1763790000000 } from './migrations/1763790000000-CreateCacheRepairs';
import { KeyCreatedBy1763920000000 } from './migrations/1763920000000-KeyCreatedBy';
import { OutboxContext1763980000000 } from './migrations/1763980000000-OutboxContext';
import { NotifyOutbox1763990000000 } from './migrations/1763990000000-NotifyOutbox';
import { StatePlanFacts1764000000000 } from './migrations/1764000000000-StatePlanFacts';
import { AppliedRequests1764200000000 } from './migrations/1764200000000-AppliedRequests';

export const GATEWAY_SCHEMA = 'gateway';

/** `statementTimeoutMs` for the serving pool (DATABASE_STATEMENT_TIMEOUT_MS). */
export function gatewayDataSource(
  url: string,
  poolSize?: number,
  statementTimeoutMs?: number,
): DataSource {
  return createAppDataSource({
    statementTimeoutMs,
    url,
    schema: GATEWAY_SCHEMA,
    migrations: [
      CreateWorkspacesAndKeys1763770000000,
      CreateUsageAndOutbox1763780000000,
      CreateCacheRepairs1763790000000,
      IndexPublishedOutbox1763800000000,
      KeyCreatedBy1763920000000,
      CreateActivity1763960000000,
      OutboxContext1763980000000,
      NotifyOutbox1763990000000,
      StatePlanFacts1764000000000,
      AppliedRequests1764200000000,
    ],
    entities: [
      PlanEntity,
      WorkspaceEntity,
      ApiKeyEntity,
      KeyUsageEntity,
      outboxEntity(GATEWAY_SCHEMA),
      CacheRepairEntity,
      activityEntity(GATEWAY_SCHEMA),
      appliedRequestsEntity(GATEWAY_SCHEMA),
    ],
    applicationName: 'custodian-gateway',
    poolSize,
  });
}
