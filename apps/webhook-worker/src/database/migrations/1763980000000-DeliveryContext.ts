import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15: a delivery keeps the context (request id) of the request whose write caused it.
 * Nullable with no default: adding it rewrites nothing, and a worker of the previous version
 * (which does not name it) keeps working during a rolling deploy.
 */
export class DeliveryContext1763980000000 implements MigrationInterface {
  name = 'DeliveryContext1763980000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE delivery.deliveries ADD COLUMN context jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE delivery.deliveries DROP COLUMN context`);
  }
}
