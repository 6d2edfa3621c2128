import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's delivery log: a resend starts a new chain of attempts under the same delivery
 * (`chain`, and `attempts_before_chain` so that retries count per chain); each attempt keeps
 * the headers it sent and got; `finished_at` dates an outcome for the 24 h success rate.
 * Indexes: the workspace's log newest first, finished deliveries per endpoint by finish time
 * (status included: the rate reads the index alone), and pending Test pings per endpoint (a
 * ping is sent even to a disabled endpoint, whose other deliveries wait).
 */
export class DeliveryChainsAndHeaders1763900100000 implements MigrationInterface {
  name = 'DeliveryChainsAndHeaders1763900100000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE delivery.deliveries
        ADD COLUMN chain integer NOT NULL DEFAULT 1,
        ADD COLUMN attempts_before_chain integer NOT NULL DEFAULT 0,
        ADD COLUMN finished_at timestamptz`);
    await db.query(`
      ALTER TABLE delivery.delivery_attempts
        ADD COLUMN chain integer NOT NULL DEFAULT 1,
        ADD COLUMN request_headers jsonb,
        ADD COLUMN response_headers jsonb`);
    // A finished delivery finished with its last attempt.
    await db.query(`
      UPDATE delivery.deliveries d
      SET finished_at = coalesce(
        (SELECT max(a.started_at + a.duration_ms * interval '1 millisecond')
         FROM delivery.delivery_attempts a WHERE a.delivery_id = d.id),
        d.created_at)
      WHERE d.status <> 'pending'`);
    await db.query(
      `CREATE INDEX deliveries_workspace_log
       ON delivery.deliveries (workspace_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX deliveries_finished_by_endpoint
       ON delivery.deliveries (endpoint_id, finished_at) INCLUDE (status)
       WHERE status <> 'pending'`,
    );
    await db.query(
      `CREATE INDEX deliveries_pending_pings ON delivery.deliveries (endpoint_id)
       WHERE status = 'pending' AND event = 'ping'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX delivery.deliveries_pending_pings`);
    await db.query(`DROP INDEX delivery.deliveries_finished_by_endpoint`);
    await db.query(`DROP INDEX delivery.deliveries_workspace_log`);
    await db.query(`
      ALTER TABLE delivery.delivery_attempts
        DROP COLUMN chain, DROP COLUMN request_headers, DROP COLUMN response_headers`);
    await db.query(`
      ALTER TABLE delivery.deliveries
        DROP COLUMN chain, DROP COLUMN attempts_before_chain, DROP COLUMN finished_at`);
  }
}
