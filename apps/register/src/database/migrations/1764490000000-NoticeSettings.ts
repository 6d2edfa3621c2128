import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: a workspace's notice settings, when it changed the defaults: the days before an
 * expiry date (a licence's, later a warranty's) that an `*.expiring` event fires. No row: the
 * defaults (30 and 7). Additive.
 */
export class NoticeSettings1764490000000 implements MigrationInterface {
  name = 'NoticeSettings1764490000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.notice_settings (
        workspace_id text NOT NULL,
        expiry_days integer[] NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notice_settings_pkey PRIMARY KEY (workspace_id),
        CONSTRAINT notice_settings_expiry_days_check
          CHECK (cardinality(expiry_days) <= 5 AND 1 <= ALL (expiry_days)
                 AND 365 >= ALL (expiry_days))
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.notice_settings`);
  }
}
