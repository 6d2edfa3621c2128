import { createActivityTable } from '@custodian/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 14: the activity feed's table for the records this app owns, written in the
 * transaction of each change (libs/persistence activity-log.ts has the shape).
 */
export class CreateActivity1763960000000 implements MigrationInterface {
  name = 'CreateActivity1763960000000';

  async up(db: QueryRunner): Promise<void> {
    await createActivityTable(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE gateway.activity');
  }
}
