import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: a maintenance record's repeating reminder (`repeat` on POST
 * /assets/{id}/maintenance: "service every 6 months"), made in the record's transaction.
 * Additive: a nullable column, no foreign key (a reminder is cancelled, never deleted).
 */
export class MaintenanceReminder1764550000000 implements MigrationInterface {
  name = 'MaintenanceReminder1764550000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.maintenance ADD COLUMN reminder_id text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.maintenance DROP COLUMN reminder_id`);
  }
}
