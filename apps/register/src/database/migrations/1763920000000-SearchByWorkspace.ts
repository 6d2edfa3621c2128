import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The listed tables: their workspace counters' version column, their search index, and the
 * columns their lists filter on (a change to any of them can change a list's total or pages).
 */
const LISTED = [
  {
    table: 'assets',
    version: 'asset_version',
    index: 'assets_search',
    filtered: 'workspace_id, status, search_text, assigned_to_id',
  },
  {
    table: 'people',
    version: 'person_version',
    index: 'people_search',
    filtered: 'workspace_id, status, search_text',
  },
] as const;

/**
 * Lists at scale (issue 13, docs/adr/0014-reads-at-scale.md).
 *
 * - The trigram index leads with the workspace (btree_gin), so a search reads the posting lists
 *   of its own workspace's rows rather than every tenant's: beside 5M assets of other
 *   workspaces, a selective search of a 1M workspace went from ~175 ms to ~40 ms.
 * - A list version per workspace, bumped by a trigger whenever a row is inserted or deleted or
 *   changes a column a list filters on. The register caches a filtered list's exact total and
 *   its pages' last ids against it, so walking the pages of one search counts once and seeks
 *   each page from the last. A trigger rather than the services, so no write path can forget it.
 *   Statement triggers with transition tables: a bulk insert bumps each workspace once.
 */
export class SearchByWorkspace1763920000000 implements MigrationInterface {
  name = 'SearchByWorkspace1763920000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    for (const { table, version, index, filtered } of LISTED) {
      await db.query(
        `CREATE INDEX ${index} ON register.${table}
           USING gin (workspace_id, search_text gin_trgm_ops)`,
      );
      await db.query(`DROP INDEX register.${table}_search_trgm`);
      await db.query(
        `ALTER TABLE register.workspace_counters
           ADD COLUMN ${version} bigint NOT NULL DEFAULT 0`,
      );
      // Upserts: a workspace's first row may come before its counters row (a bulk load).
      const bump = (changed: string) => `
        INSERT INTO register.workspace_counters AS c (workspace_id, ${version})
        SELECT DISTINCT workspace_id, 1 FROM (${changed}) changed
        ON CONFLICT (workspace_id) DO UPDATE SET ${version} = c.${version} + 1`;
      await db.query(
        `CREATE FUNCTION register.${table}_list_version() RETURNS trigger
         LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP = 'INSERT' THEN
             ${bump('SELECT workspace_id FROM new_rows')};
           ELSIF TG_OP = 'DELETE' THEN
             ${bump('SELECT workspace_id FROM old_rows')};
           ELSE
             ${bump(
               `SELECT n.workspace_id FROM new_rows n JOIN old_rows o USING (id)
                WHERE (${prefixed('n', filtered)}) IS DISTINCT FROM (${prefixed('o', filtered)})
                UNION ALL
                SELECT o.workspace_id FROM new_rows n JOIN old_rows o USING (id)
                WHERE n.workspace_id <> o.workspace_id`,
             )};
           END IF;
           RETURN NULL;
         END $$`,
      );
      await db.query(
        `CREATE TRIGGER ${table}_list_version_insert AFTER INSERT ON register.${table}
           REFERENCING NEW TABLE AS new_rows
           FOR EACH STATEMENT EXECUTE FUNCTION register.${table}_list_version()`,
      );
      await db.query(
        `CREATE TRIGGER ${table}_list_version_update AFTER UPDATE ON register.${table}
           REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
           FOR EACH STATEMENT EXECUTE FUNCTION register.${table}_list_version()`,
      );
      await db.query(
        `CREATE TRIGGER ${table}_list_version_delete AFTER DELETE ON register.${table}
           REFERENCING OLD TABLE AS old_rows
           FOR EACH STATEMENT EXECUTE FUNCTION register.${table}_list_version()`,
      );
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const { table, version, index } of LISTED) {
      for (const op of ['insert', 'update', 'delete']) {
        await db.query(`DROP TRIGGER ${table}_list_version_${op} ON register.${table}`);
      }
      await db.query(`DROP FUNCTION register.${table}_list_version()`);
      await db.query(`ALTER TABLE register.workspace_counters DROP COLUMN ${version}`);
      await db.query(
        `CREATE INDEX ${table}_search_trgm ON register.${table}
           USING gin (search_text gin_trgm_ops)`,
      );
      await db.query(`DROP INDEX register.${index}`);
    }
  }
}

function prefixed(alias: string, columns: string): string {
  return columns
    .split(', ')
    .map((column) => `${alias}.${column}`)
    .join(', ');
}
