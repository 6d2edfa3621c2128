import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: a workspace's licence settings, when it changed the defaults: whether offboarding
 * a person releases their seats when the PATCH does not say. No row: the defaults. Additive.
 */
export class LicenseSettings1764540000000 implements MigrationInterface {
  name = 'LicenseSettings1764540000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.license_settings (
        workspace_id text NOT NULL,
        release_on_offboard boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT license_settings_pkey PRIMARY KEY (workspace_id)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.license_settings`);
  }
}
