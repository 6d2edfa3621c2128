import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the console shows and changes on an endpoint: why and since when it is disabled
 * (`manual` by a person, `auto` after a long run of failed deliveries), the run itself, and
 * the previous signing secret that still signs during a rotation's overlap (encrypted like
 * the current one). An endpoint disabled before this is taken as disabled by hand.
 */
export class EndpointConsoleState1763900000000 implements MigrationInterface {
  name = 'EndpointConsoleState1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE delivery.endpoints
        ADD COLUMN disabled_reason text,
        ADD COLUMN disabled_at timestamptz,
        ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN previous_secret text,
        ADD COLUMN previous_secret_expires_at timestamptz`);
    await db.query(
      `UPDATE delivery.endpoints SET disabled_reason = 'manual', disabled_at = now()
       WHERE NOT enabled`,
    );
    await db.query(`
      ALTER TABLE delivery.endpoints
        ADD CONSTRAINT endpoints_disabled_reason_check
          CHECK (disabled_reason IN ('manual', 'auto')),
        ADD CONSTRAINT endpoints_disabled_state
          CHECK (enabled = (disabled_reason IS NULL) AND enabled = (disabled_at IS NULL)),
        ADD CONSTRAINT endpoints_previous_secret_encrypted
          CHECK (previous_secret LIKE 'v1:%'),
        ADD CONSTRAINT endpoints_previous_secret_expiry
          CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE delivery.endpoints
        DROP COLUMN disabled_reason,
        DROP COLUMN disabled_at,
        DROP COLUMN consecutive_failures,
        DROP COLUMN failing_since,
        DROP COLUMN previous_secret,
        DROP COLUMN previous_secret_expires_at`);
  }
}
