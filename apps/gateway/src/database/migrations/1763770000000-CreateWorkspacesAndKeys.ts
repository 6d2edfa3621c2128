import { PLAN_CATALOG } from '@custodian/plans';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWorkspacesAndKeys1763770000000 implements MigrationInterface {
  name = 'CreateWorkspacesAndKeys1763770000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE gateway.plans (
        name text PRIMARY KEY,
        api_access boolean NOT NULL,
        rate_per_minute integer,
        monthly_quota bigint,
        assets integer,
        people integer,
        seats integer
      )`);
    for (const plan of Object.values(PLAN_CATALOG)) {
      await db.query(
        `INSERT INTO gateway.plans (name, api_access, rate_per_minute, monthly_quota, assets, people, seats)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          plan.name,
          plan.apiAccess,
          plan.limits.ratePerMinute,
          plan.limits.monthlyQuota,
          plan.limits.assets,
          plan.limits.people,
          plan.limits.seats,
        ],
      );
    }
    await db.query(`
      CREATE TABLE gateway.workspaces (
        id text PRIMARY KEY,
        name text NOT NULL,
        plan text NOT NULL REFERENCES gateway.plans(name),
        overrides jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE gateway.api_keys (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES gateway.workspaces(id),
        name text,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await db.query(`CREATE INDEX api_keys_workspace ON gateway.api_keys (workspace_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.api_keys`);
    await db.query(`DROP TABLE gateway.workspaces`);
    await db.query(`DROP TABLE gateway.plans`);
  }
}
