import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns each list filters on, before and after this migration (list version triggers). */
const ASSETS_BEFORE = [
  'workspace_id',
  'status',
  'search_text',
  'assigned_to_id',
  'warranty_expires_on',
];
const ASSETS = [...ASSETS_BEFORE, 'location_id', 'category_id'];
const PEOPLE_BEFORE = ['workspace_id', 'status', 'search_text'];
const PEOPLE = [...PEOPLE_BEFORE, 'location_id'];

/**
 * Issue 34: locations and categories become records of their own.
 *
 * - A location has a parent (a building, its floors, their rooms), an address and notes. A
 *   name is unique among its siblings, any case ("Floor 1" in two buildings); the top level
 *   keeps the old workspace-wide index's rule, so `location` given by name still finds or
 *   creates one top-level place in one statement (ON CONFLICT on the partial index).
 * - `ON DELETE RESTRICT` on the parent: a place with children is never deleted under them
 *   (the service answers 409 first; the key is the backstop).
 * - The assets list filters by location and category, the people list by location: an index
 *   for each, and the list version triggers count those columns so a cached total is dropped
 *   when an asset moves. Moving a location changes what "everything under it" holds without
 *   touching an asset, so a parent change bumps both lists' versions (and their rows versions,
 *   which tag the bare arrays' bytes) too.
 */
export class LocationTree1764560000000 implements MigrationInterface {
  name = 'LocationTree1764560000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.locations
      ADD COLUMN parent_id text REFERENCES register.locations(id) ON DELETE RESTRICT,
      ADD COLUMN address text,
      ADD COLUMN notes text,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await db.query(`ALTER TABLE register.categories
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await db.query(`DROP INDEX register.locations_workspace_name`);
    await db.query(
      `CREATE UNIQUE INDEX locations_top_name ON register.locations (workspace_id, lower(name))
         WHERE parent_id IS NULL`,
    );
    await db.query(
      `CREATE UNIQUE INDEX locations_sibling_name ON register.locations (parent_id, lower(name))
         WHERE parent_id IS NOT NULL`,
    );
    // Finding a name anywhere in the tree (`location` by name) reads this one.
    await db.query(
      `CREATE INDEX locations_workspace_any_name ON register.locations (workspace_id, lower(name))`,
    );
    await db.query(
      `CREATE INDEX assets_workspace_location ON register.assets
         (workspace_id, location_id, created_at, id) WHERE location_id IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX assets_workspace_category ON register.assets
         (workspace_id, category_id, created_at, id) WHERE category_id IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX people_workspace_location ON register.people
         (workspace_id, location_id, created_at, id) WHERE location_id IS NOT NULL`,
    );
    await db.query(listVersionFunction('assets', 'asset_version', ASSETS));
    await db.query(listVersionFunction('people', 'person_version', PEOPLE));
    await db.query(`CREATE FUNCTION register.locations_moved() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE register.workspace_counters c
           SET asset_version = c.asset_version + 1, person_version = c.person_version + 1,
               asset_rows_version = c.asset_rows_version + 1,
               person_rows_version = c.person_rows_version + 1
         WHERE c.workspace_id IN (SELECT n.workspace_id FROM new_rows n JOIN old_rows o USING (id)
                                   WHERE n.parent_id IS DISTINCT FROM o.parent_id);
        RETURN NULL;
      END $$`);
    await db.query(`CREATE TRIGGER locations_moved AFTER UPDATE ON register.locations
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION register.locations_moved()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER locations_moved ON register.locations`);
    await db.query(`DROP FUNCTION register.locations_moved()`);
    await db.query(listVersionFunction('people', 'person_version', PEOPLE_BEFORE));
    await db.query(listVersionFunction('assets', 'asset_version', ASSETS_BEFORE));
    await db.query(`DROP INDEX register.people_workspace_location`);
    await db.query(`DROP INDEX register.assets_workspace_category`);
    await db.query(`DROP INDEX register.assets_workspace_location`);
    await db.query(`DROP INDEX register.locations_workspace_any_name`);
    await db.query(`DROP INDEX register.locations_sibling_name`);
    await db.query(`DROP INDEX register.locations_top_name`);
    // Names were unique per workspace before: a tree with repeated names cannot go back.
    await db.query(
      `CREATE UNIQUE INDEX locations_workspace_name ON register.locations (workspace_id, lower(name))`,
    );
    await db.query(`ALTER TABLE register.categories DROP COLUMN updated_at`);
    await db.query(`ALTER TABLE register.locations DROP COLUMN parent_id, DROP COLUMN address,
      DROP COLUMN notes, DROP COLUMN updated_at`);
  }
}

/** register.<table>_list_version() as SearchByWorkspace wrote it, over `filtered` columns. */
function listVersionFunction(table: string, version: string, filtered: readonly string[]): string {
  const bump = (changed: string) => `
    INSERT INTO register.workspace_counters AS c (workspace_id, ${version})
    SELECT DISTINCT workspace_id, 1 FROM (${changed}) changed
    ON CONFLICT (workspace_id) DO UPDATE SET ${version} = c.${version} + 1`;
  const of = (alias: string) => filtered.map((column) => `${alias}.${column}`).join(', ');
  return `CREATE OR REPLACE FUNCTION register.${table}_list_version() RETURNS trigger
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
