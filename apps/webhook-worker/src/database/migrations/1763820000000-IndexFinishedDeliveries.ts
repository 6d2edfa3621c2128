import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Finished deliveries by age: what the delivery log's retention prunes. */
export class IndexFinishedDeliveries1763820000000 implements MigrationInterface {
  name = 'IndexFinishedDeliveries1763820000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX deliveries_finished ON delivery.deliveries (created_at)
       WHERE status <> 'pending'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX delivery.deliveries_finished`);
  }
}
