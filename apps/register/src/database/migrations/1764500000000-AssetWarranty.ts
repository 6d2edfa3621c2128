import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns of register.assets a list filters on, before and after this migration. */
const FILTERED_BEFORE = ['workspace_id', 'status', 'search_text', 'assigned_to_id'];
const FILTERED = [...FILTERED_BEFORE, 'warranty_expires_on'];

/**
 * Issue 33: an asset's purchase date and the last day of its warranty (`warranty.expiring`
 * and `warranty.expired` are due-date notices, armed by the writes). Additive: nullable
 * columns, so a register of the previous version keeps writing assets beside this one.
 *
 * - `assets_workspace_warranty`: GET /assets?warranty_expires_before=... reads the range of
 *   one workspace's dates, only the assets that have one.
 * - The list version trigger (migration SearchByWorkspace) also counts a change of the
 *   warranty date, now that a list filters on it: a cached total of that filter is dropped
 *   when a date changes.
 */
export class AssetWarranty1764500000000 implements MigrationInterface {
  name = 'AssetWarranty1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.assets ADD COLUMN purchase_date date,
                      ADD COLUMN warranty_expires_on date`);
    await db.query(
      `CREATE INDEX assets_workspace_warranty ON register.assets
         (workspace_id, warranty_expires_on, id) WHERE warranty_expires_on IS NOT NULL`,
    );
    await db.query(listVersionFunction(FILTERED));
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(listVersionFunction(FILTERED_BEFORE));
    await db.query(`DROP INDEX register.assets_workspace_warranty`);
    await db.query(`ALTER TABLE register.assets DROP COLUMN purchase_date,
                      DROP COLUMN warranty_expires_on`);
  }
}

/** register.assets_list_version() as SearchByWorkspace wrote it, over `filtered` columns. */
function listVersionFunction(filtered: readonly string[]): string {
  const bump = (changed: string) => `
    INSERT INTO register.workspace_counters AS c (workspace_id, asset_version)
    SELECT DISTINCT workspace_id, 1 FROM (${changed}) changed
    ON CONFLICT (workspace_id) DO UPDATE SET asset_version = c.asset_version + 1`;
  const of = (alias: string) => filtered.map((column) => `${alias}.${column}`).join(', ');
  return `CREATE OR REPLACE FUNCTION register.assets_list_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${bump('SELECT workspace_id FROM new_rows')};
      ELSIF TG_OP = 'DELETE' THEN
        ${bump('SELECT workspace_id FROM old_rows')};
      ELSE
        ${bump(
          `SELECT n.workspace_id FROM new_rows n JOIN old_rows o USING (id)
           WHERE (${of('n')}) IS DISTINCT FROM (${of('o')})
           UNION ALL
           SELECT o.workspace_id FROM new_rows n JOIN old_rows o USING (id)
           WHERE n.workspace_id <> o.workspace_id`,
        )};
      END IF;
      RETURN NULL;
    END $$`;
}
