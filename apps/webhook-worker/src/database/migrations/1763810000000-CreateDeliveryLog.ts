import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One delivery per (event, endpoint), leased by the scheduler; one row per HTTP attempt. */
export class CreateDeliveryLog1763810000000 implements MigrationInterface {
  name = 'CreateDeliveryLog1763810000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE delivery.deliveries (
        id text PRIMARY KEY,
        event_id text NOT NULL,
        endpoint_id text NOT NULL REFERENCES delivery.endpoints (id) ON DELETE CASCADE,
        workspace_id text NOT NULL,
        event text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT deliveries_event_endpoint UNIQUE (event_id, endpoint_id)
      )`);
    await db.query(
      `CREATE INDEX deliveries_due ON delivery.deliveries (next_attempt_at)
       WHERE status = 'pending'`,
    );
    await db.query(
      `CREATE INDEX deliveries_endpoint_log
       ON delivery.deliveries (endpoint_id, created_at DESC, id DESC)`,
    );
    await db.query(`
      CREATE TABLE delivery.delivery_attempts (
        delivery_id text NOT NULL REFERENCES delivery.deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        response_body text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery.delivery_attempts`);
    await db.query(`DROP TABLE delivery.deliveries`);
  }
}
