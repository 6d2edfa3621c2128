import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 14: `GET /assets?sort=name|updated_at` (either direction) reads a page of a workspace
 * of a million through an index, as the default order does (assets_workspace_order), instead
 * of sorting every row of the workspace. Built in the migration's transaction: writes to the
 * assets table wait for it (seconds at a million rows).
 */
export class AssetSortIndexes1763970000000 implements MigrationInterface {
  name = 'AssetSortIndexes1763970000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX assets_workspace_name ON register.assets (workspace_id, name, id)`,
    );
    await db.query(
      `CREATE INDEX assets_workspace_updated ON register.assets (workspace_id, updated_at, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.assets_workspace_updated`);
    await db.query(`DROP INDEX register.assets_workspace_name`);
  }
}
