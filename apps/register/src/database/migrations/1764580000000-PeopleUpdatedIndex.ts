import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35: `GET /people?updated_since=` reads the people changed since an instant, in
 * `updated_at, id` order, through an index as the assets list does (assets_workspace_updated),
 * instead of sorting every person of the workspace.
 */
export class PeopleUpdatedIndex1764580000000 implements MigrationInterface {
  name = 'PeopleUpdatedIndex1764580000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX people_workspace_updated ON register.people (workspace_id, updated_at, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.people_workspace_updated`);
  }
}
