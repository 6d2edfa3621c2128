import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Due deliveries by endpoint: the claim visits each endpoint with pending deliveries once
 * (a loose index scan) and takes the oldest few of each, so one endpoint's backlog cannot fill
 * a claim. It replaces the index of due deliveries by time alone, which only that claim read.
 */
export class IndexDueDeliveriesByEndpoint1763830000000 implements MigrationInterface {
  name = 'IndexDueDeliveriesByEndpoint1763830000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX deliveries_due_by_endpoint ON delivery.deliveries (endpoint_id, next_attempt_at)
       WHERE status = 'pending'`,
    );
    await db.query(`DROP INDEX delivery.deliveries_due`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX deliveries_due ON delivery.deliveries (next_attempt_at)
       WHERE status = 'pending'`,
    );
    await db.query(`DROP INDEX delivery.deliveries_due_by_endpoint`);
  }
}
