import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What bumps each bytes version: a statement on `table` changes what the unpaged array of
 * `bumps` shows, for the workspaces of the rows it touched. `update` is which updates do (a
 * column: only when it changed; `*`: every update); `own`: the table is the listed one, so its
 * inserts and deletes do too.
 */
const SOURCES = [
  { table: 'assets', bumps: 'asset_rows_version', update: '*', own: true },
  // An asset shows its holder's name and its category's name.
  { table: 'people', bumps: 'asset_rows_version', update: 'full_name', own: false },
  { table: 'categories', bumps: 'asset_rows_version', update: 'name', own: false },
  { table: 'people', bumps: 'person_rows_version', update: '*', own: true },
] as const;

/**
 * The unpaged lists' bytes version (issue 13, docs/adr/0014-reads-at-scale.md, "The unpaged
 * array"): per workspace, bumped in the same transaction as every change of anything an
 * unpaged asset or person list shows, by statement triggers as the list version is (so no
 * write path can forget it, and a bulk statement bumps each workspace once). The list version
 * ignores changes no filter sees (a rename of a holder, an updated_at), which the bytes show;
 * this one does not. The gateway keeps the last bytes of an unpaged list with the version they
 * were read at and asks the register only whether it is still current.
 *
 * A delete of a person or a category cannot leave an asset showing it: the foreign keys refuse
 * it while an asset refers to one, so deletes bump the version of their own list only.
 */
export class ListBytesVersion1763930000000 implements MigrationInterface {
  name = 'ListBytesVersion1763930000000';

  async up(db: QueryRunner): Promise<void> {
    for (const column of ['asset_rows_version', 'person_rows_version']) {
      await db.query(
        `ALTER TABLE register.workspace_counters ADD COLUMN ${column} bigint NOT NULL DEFAULT 0`,
      );
    }
    for (const { table, bumps, update, own } of SOURCES) {
      const fn = `register.${table}_bump_${bumps}`;
      // Upserts: a workspace's first row may come before its counters row (a bulk load).
      const bump = (changed: string) => `
        INSERT INTO register.workspace_counters AS c (workspace_id, ${bumps})
        SELECT DISTINCT workspace_id, 1 FROM (${changed}) changed
        ON CONFLICT (workspace_id) DO UPDATE SET ${bumps} = c.${bumps} + 1`;
      const updated =
        update === '*'
          ? `SELECT workspace_id FROM new_rows UNION ALL SELECT workspace_id FROM old_rows`
          : `SELECT n.workspace_id FROM new_rows n JOIN old_rows o USING (id)
             WHERE n.${update} IS DISTINCT FROM o.${update}`;
      await db.query(
        `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF TG_OP = 'INSERT' THEN
             ${own ? bump('SELECT workspace_id FROM new_rows') : 'NULL'};
           ELSIF TG_OP = 'DELETE' THEN
             ${own ? bump('SELECT workspace_id FROM old_rows') : 'NULL'};
           ELSE
             ${bump(updated)};
           END IF;
           RETURN NULL;
         END $$`,
      );
      const triggers = own
        ? [
            ['insert', 'INSERT', 'NEW TABLE AS new_rows'],
            ['update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
            ['delete', 'DELETE', 'OLD TABLE AS old_rows'],
          ]
        : [['update', 'UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows']];
      for (const [suffix, event, tables] of triggers) {
        await db.query(
          `CREATE TRIGGER ${table}_bump_${bumps}_${suffix} AFTER ${event} ON register.${table}
             REFERENCING ${tables}
             FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
        );
      }
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const { table, bumps } of SOURCES) {
      await db.query(`DROP FUNCTION register.${table}_bump_${bumps}() CASCADE`);
    }
    for (const column of ['asset_rows_version', 'person_rows_version']) {
      await db.query(`ALTER TABLE register.workspace_counters DROP COLUMN ${column}`);
    }
  }
}
