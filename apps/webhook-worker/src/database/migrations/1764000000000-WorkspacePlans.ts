import { createWorkspacePlansTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The worker's copy of the gateway's plan facts (ADR 0019): fan-out and endpoint creation read
 * a workspace's API access here instead of calling the gateway. Filled from the plan-facts
 * queue, which the gateway's migration of this version backfills.
 */
export class WorkspacePlans1764000000000 implements MigrationInterface {
  name = 'WorkspacePlans1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await createWorkspacePlansTable(db, 'delivery');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery.workspace_plans`);
  }
}
