import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDeliveries1763770000000 implements MigrationInterface {
  name = 'CreateDeliveries1763770000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE delivery.endpoints (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX endpoints_workspace ON delivery.endpoints (workspace_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery.endpoints`);
  }
}
