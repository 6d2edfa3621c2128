import { createWorkspacePlansTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The register's copy of the gateway's plan facts (ADR 0019): the seat limit of an invitation
 * being accepted, which no caller brings, no longer costs a call back to the gateway. Filled
 * from the plan-facts queue, which the gateway's migration of this version backfills.
 */
export class WorkspacePlans1764000000000 implements MigrationInterface {
  name = 'WorkspacePlans1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await createWorkspacePlansTable(db, 'register');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.workspace_plans`);
  }
}
