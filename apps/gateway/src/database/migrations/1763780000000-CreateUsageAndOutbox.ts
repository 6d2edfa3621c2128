import { createOutboxTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsageAndOutbox1763780000000 implements MigrationInterface {
  name = 'CreateUsageAndOutbox1763780000000';

  async up(db: QueryRunner): Promise<void> {
    // Monthly request counts per key, flushed from Redis every few seconds; Redis is
    // re-seeded from here after a flush or restart.
    await db.query(`
      CREATE TABLE gateway.key_usage (
        key_id text NOT NULL REFERENCES gateway.api_keys(id),
        month text NOT NULL,
        requests bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (key_id, month)
      )`);
    // Events the gateway causes (plan changes, limit hits), published by the relay.
    await createOutboxTable(db, 'gateway');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.outbox`);
    await db.query(`DROP TABLE gateway.key_usage`);
  }
}
