import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custody due dates (issue 14): a check-out may carry the date it is due back
 * (`custody_due_at`); `overdue_at` records when `assignment.overdue` fired for it, so the sweep
 * (apps/register/src/assets/overdue-sweep.ts) fires once per due date, whichever replica runs
 * it and however often it restarts. The partial index holds only what the sweep may still
 * fire, so finding what is due costs the overdue rows, not the table.
 */
export class CustodyDueDates1763940000000 implements MigrationInterface {
  name = 'CustodyDueDates1763940000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.assets ADD COLUMN custody_due_at timestamptz`);
    await db.query(`ALTER TABLE register.assets ADD COLUMN overdue_at timestamptz`);
    await db.query(
      `CREATE INDEX assets_custody_due ON register.assets (custody_due_at)
         WHERE custody_due_at IS NOT NULL AND overdue_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.assets_custody_due`);
    await db.query(`ALTER TABLE register.assets DROP COLUMN overdue_at`);
    await db.query(`ALTER TABLE register.assets DROP COLUMN custody_due_at`);
  }
}
