import { createAppDataSource } from '@custodian/runtime';
import type { DataSource } from 'typeorm';
import { CreateAssets1763770000000 } from './migrations/1763770000000-CreateAssets';
import { CreatePeopleAndCustomFields1763790000000 } from './migrations/1763790000000-CreatePeopleAndCustomFields';
import { CreateMembers1763800000000 } from './migrations/1763800000000-CreateMembers';

export const REGISTER_SCHEMA = 'register';

export function registerDataSource(url: string, poolSize?: number): DataSource {
  return createAppDataSource({
    url,
    schema: REGISTER_SCHEMA,
    migrations: [
      CreateAssets1763770000000,
      CreatePeopleAndCustomFields1763790000000,
      CreateMembers1763800000000,
    ],
    applicationName: 'custodian-register',
    poolSize,
  });
}
