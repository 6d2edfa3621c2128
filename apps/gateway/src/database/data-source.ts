import { createAppDataSource } from '@custodian/runtime';
import type { DataSource } from 'typeorm';
import { CreateWorkspacesAndKeys1763770000000 } from './migrations/1763770000000-CreateWorkspacesAndKeys';
import { CreateUsageAndOutbox1763780000000 } from './migrations/1763780000000-CreateUsageAndOutbox';
import { CreateCacheRepairs1763790000000 } from './migrations/1763790000000-CreateCacheRepairs';

export const GATEWAY_SCHEMA = 'gateway';

export function gatewayDataSource(url: string, poolSize?: number): DataSource {
  return createAppDataSource({
    url,
    schema: GATEWAY_SCHEMA,
    migrations: [
      CreateWorkspacesAndKeys1763770000000,
      CreateUsageAndOutbox1763780000000,
      CreateCacheRepairs1763790000000,
    ],
    applicationName: 'custodian-gateway',
    poolSize,
  });
}
