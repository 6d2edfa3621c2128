import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33, item 5: maintenance records of assets.
 *
 * - register.maintenance: one row per record, `status` open or resolved (resolved once);
 *   `asset_status_before` is the status the record took the asset from when it put it in
 *   `maintenance` (null: it did not), what a resolve puts back. No foreign key to the asset:
 *   a binned asset's row moves to register.deleted_assets and its records stay with it.
 * - The lists read by workspace, newest first, per status and per asset.
 *
 * Additive.
 */
export class CreateMaintenance1764510000000 implements MigrationInterface {
  name = 'CreateMaintenance1764510000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.maintenance (
        id text NOT NULL,
        workspace_id text NOT NULL,
        asset_id text NOT NULL,
        title text NOT NULL,
        type text NOT NULL,
        notes text,
        scheduled_for date,
        cost numeric(14, 2),
        status text NOT NULL DEFAULT 'open',
        asset_status_before text,
        resolution_notes text,
        created_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        CONSTRAINT maintenance_pkey PRIMARY KEY (id),
        CONSTRAINT maintenance_type_check
          CHECK (type IN ('repair', 'service', 'inspection', 'upgrade')),
        CONSTRAINT maintenance_status_check CHECK (status IN ('open', 'resolved')),
        CONSTRAINT maintenance_resolved_check
          CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
      )`);
    await db.query(
      `CREATE INDEX maintenance_workspace_status
         ON register.maintenance (workspace_id, status, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX maintenance_workspace_asset
         ON register.maintenance (workspace_id, asset_id, created_at, id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.maintenance`);
  }
}
