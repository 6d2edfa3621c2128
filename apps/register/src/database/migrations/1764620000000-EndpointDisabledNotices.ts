import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35, item 7: the worker's notices of endpoints it disabled, one row per message the
 * register e-mailed about. The message id is the key, so a redelivery (a crash after the
 * commit and before the ack) finds its row and sends nothing twice. Additive.
 */
export class EndpointDisabledNotices1764620000000 implements MigrationInterface {
  name = 'EndpointDisabledNotices1764620000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.endpoint_disabled_notices (
        message_id text PRIMARY KEY,
        workspace_id text NOT NULL,
        endpoint_id text NOT NULL,
        url text NOT NULL,
        disabled_at timestamptz NOT NULL,
        recipients int NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.endpoint_disabled_notices`);
  }
}
