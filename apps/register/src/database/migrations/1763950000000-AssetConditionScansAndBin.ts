import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 14: an asset's condition and when it was last scanned; scan lookups by tag or serial
 * number as a scanner types them (any case); and the bin of soft-deleted assets.
 *
 * A deleted asset leaves register.assets for register.deleted_assets (its row as JSON), so
 * every list, search, count, index and trigger of the assets table stays as it is and cannot
 * show a deleted asset by forgetting a `deleted_at IS NULL`. Restoring moves the row back
 * with the same id.
 */
export class AssetConditionScansAndBin1763950000000 implements MigrationInterface {
  name = 'AssetConditionScansAndBin1763950000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE register.assets ADD COLUMN condition text
         CONSTRAINT assets_condition_check
         CHECK (condition IN ('new', 'good', 'fair', 'poor', 'broken'))`,
    );
    await db.query(`ALTER TABLE register.assets ADD COLUMN last_scanned_at timestamptz`);
    await db.query(
      `CREATE INDEX assets_scan_tag ON register.assets (workspace_id, lower(asset_tag))`,
    );
    await db.query(
      `CREATE INDEX assets_scan_serial ON register.assets (workspace_id, lower(serial_number))
         WHERE serial_number IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE register.deleted_assets (
        id text CONSTRAINT deleted_assets_pkey PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        asset_tag text NOT NULL,
        row jsonb NOT NULL,
        deleted_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE INDEX deleted_assets_workspace
         ON register.deleted_assets (workspace_id, deleted_at, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.deleted_assets`);
    await db.query(`DROP INDEX register.assets_scan_serial`);
    await db.query(`DROP INDEX register.assets_scan_tag`);
    await db.query(`ALTER TABLE register.assets DROP COLUMN last_scanned_at`);
    await db.query(`ALTER TABLE register.assets DROP COLUMN condition`);
  }
}
