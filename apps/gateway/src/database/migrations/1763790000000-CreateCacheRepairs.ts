import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCacheRepairs1763790000000 implements MigrationInterface {
  name = 'CreateCacheRepairs1763790000000';

  async up(db: QueryRunner): Promise<void> {
    // Workspaces whose cached keys could not be rewritten after a change (Redis was down);
    // the gateway rewrites them once Redis answers again.
    await db.query(`
      CREATE TABLE gateway.cache_repairs (
        workspace_id text PRIMARY KEY REFERENCES gateway.workspaces(id),
        requested_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.cache_repairs`);
  }
}
