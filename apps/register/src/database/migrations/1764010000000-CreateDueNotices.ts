import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The due-date engine's table (ADR 0020): one row per (subject, kind, due date), armed until
 * the engine fires it, a domain cancels it, or its handler gives up. The unique constraint
 * makes a date fire once whatever arms it again; the partial unique index allows one armed
 * date per (subject, kind); the partial index on next_attempt_at holds only armed rows, so
 * finding what is due costs what is due, not the table.
 */
export class CreateDueNotices1764010000000 implements MigrationInterface {
  name = 'CreateDueNotices1764010000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.due_notices (
        id bigint GENERATED ALWAYS AS IDENTITY,
        workspace_id text NOT NULL,
        subject_type text NOT NULL,
        subject_id text NOT NULL,
        kind text NOT NULL,
        due_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        scheduled_at timestamptz NOT NULL DEFAULT now(),
        fired_at timestamptz,
        cancelled_at timestamptz,
        failed_at timestamptz,
        CONSTRAINT due_notices_pkey PRIMARY KEY (id),
        CONSTRAINT due_notices_once UNIQUE (workspace_id, subject_type, subject_id, kind, due_at),
        CONSTRAINT due_notices_one_end CHECK (num_nonnulls(fired_at, cancelled_at, failed_at) <= 1),
        CONSTRAINT due_notices_attempts CHECK (attempts >= 0)
      )`);
    await db.query(
      `CREATE UNIQUE INDEX due_notices_one_armed
         ON register.due_notices (workspace_id, subject_type, subject_id, kind)
         WHERE fired_at IS NULL AND cancelled_at IS NULL AND failed_at IS NULL`,
    );
    await db.query(
      `CREATE INDEX due_notices_next ON register.due_notices (next_attempt_at, id)
         WHERE fired_at IS NULL AND cancelled_at IS NULL AND failed_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.due_notices`);
  }
}
