import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: reminders, one-off or repeating, each occurrence a due-date notice
 * (`reminder.due`, subject type `reminder`). Additive.
 */
export class CreateReminders1764520000000 implements MigrationInterface {
  name = 'CreateReminders1764520000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.reminders (
        id text NOT NULL,
        workspace_id text NOT NULL,
        title text NOT NULL,
        notes text,
        status text NOT NULL DEFAULT 'scheduled',
        due_at timestamptz NOT NULL,
        anchor_at timestamptz NOT NULL,
        anchor_count integer NOT NULL DEFAULT 0,
        repeat_every integer,
        repeat_unit text,
        occurrences integer NOT NULL DEFAULT 0,
        last_due_at timestamptz,
        asset_id text,
        person_id text,
        license_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT reminders_pkey PRIMARY KEY (id),
        CONSTRAINT reminders_status_check
          CHECK (status IN ('scheduled', 'done', 'cancelled')),
        CONSTRAINT reminders_repeat_unit_check CHECK (repeat_unit IN ('day', 'week', 'month')),
        CONSTRAINT reminders_repeat_check
          CHECK ((repeat_every IS NULL) = (repeat_unit IS NULL)
                 AND repeat_every BETWEEN 1 AND 365),
        CONSTRAINT reminders_subject_check
          CHECK (num_nonnulls(asset_id, person_id, license_id) <= 1)
      )`);
    await db.query(
      `CREATE INDEX reminders_workspace_due ON register.reminders (workspace_id, due_at, id)`,
    );
    for (const column of ['asset', 'person', 'license']) {
      await db.query(
        `CREATE INDEX reminders_${column} ON register.reminders (workspace_id, ${column}_id)
           WHERE ${column}_id IS NOT NULL`,
      );
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.reminders`);
  }
}
