import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * assignment.overdue moves onto the due-date engine (ADR 0020): every open check-out with a
 * due date that has not fired yet (overdue_at null) gets its notice, so the engine fires it at
 * its date, or at its first run if the date passed while the register was being upgraded.
 * The kind and subject are written out, not imported: a migration that ran never changes.
 * assets.overdue_at stays for now: registers of the previous version, still running during
 * the rollout, read and write it.
 */
export class OverdueNotices1764020000000 implements MigrationInterface {
  name = 'OverdueNotices1764020000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      INSERT INTO register.due_notices
             (workspace_id, subject_type, subject_id, kind, due_at, next_attempt_at)
      SELECT workspace_id, 'asset', id, 'assignment.overdue', custody_due_at, custody_due_at
        FROM register.assets
       WHERE assigned_to_id IS NOT NULL AND custody_due_at IS NOT NULL AND overdue_at IS NULL
      ON CONFLICT DO NOTHING`);
  }

  async down(): Promise<void> {
    // Nothing to undo on its own: the notices go with their table (CreateDueNotices' down),
    // and a register of the previous version ignores them.
  }
}
