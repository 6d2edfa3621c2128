import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * CSV imports (issue 35): an import row with its counters, and one row per data row of the
 * file with its cells, the dry run's plan and, once applied, its result. Additive.
 *
 * - Rows are keyed (import_id, row_number): the jobs walk them in file order, the plan's
 *   (`plan IS NULL`) and the import's (`NOT done`) through partial indexes.
 * - `match_key` (the identifier a row is matched by: `asset_tag:X`, `email:x`) finds an
 *   earlier row of the same file with the same key: a second row for one record is refused.
 * - Imports a job has work on (`planning`, `importing`) are found by a partial index.
 */
export class CreateImports1764590000000 implements MigrationInterface {
  name = 'CreateImports1764590000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.imports (
        id text NOT NULL,
        workspace_id text NOT NULL,
        type text NOT NULL,
        status text NOT NULL DEFAULT 'uploading',
        dry_run boolean NOT NULL,
        filename text,
        columns text[] NOT NULL,
        total_rows integer NOT NULL DEFAULT 0,
        planned_rows integer NOT NULL DEFAULT 0,
        plan_create integer NOT NULL DEFAULT 0,
        plan_update integer NOT NULL DEFAULT 0,
        plan_refuse integer NOT NULL DEFAULT 0,
        done_rows integer NOT NULL DEFAULT 0,
        created_count integer NOT NULL DEFAULT 0,
        updated_count integer NOT NULL DEFAULT 0,
        unchanged_count integer NOT NULL DEFAULT 0,
        refused_count integer NOT NULL DEFAULT 0,
        created_by jsonb NOT NULL,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CONSTRAINT imports_pkey PRIMARY KEY (id),
        CONSTRAINT imports_type_check CHECK (type IN ('assets', 'people')),
        CONSTRAINT imports_status_check CHECK (status IN ('uploading', 'planning', 'planned',
          'importing', 'completed', 'cancelled', 'failed'))
      )`);
    await db.query(
      `CREATE INDEX imports_workspace_created ON register.imports (workspace_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX imports_pending_jobs ON register.imports (updated_at)
         WHERE status IN ('planning', 'importing')`,
    );
    await db.query(`
      CREATE TABLE register.import_rows (
        import_id text NOT NULL,
        row_number integer NOT NULL,
        cells text[] NOT NULL,
        match_key text,
        plan text,
        target_id text,
        message text,
        result text,
        record_id text,
        done boolean NOT NULL DEFAULT false,
        CONSTRAINT import_rows_pkey PRIMARY KEY (import_id, row_number),
        CONSTRAINT import_rows_import_id_fkey FOREIGN KEY (import_id)
          REFERENCES register.imports(id) ON DELETE CASCADE,
        CONSTRAINT import_rows_plan_check CHECK (plan IN ('create', 'update', 'refuse')),
        CONSTRAINT import_rows_result_check
          CHECK (result IN ('created', 'updated', 'unchanged', 'refused'))
      )`);
    await db.query(
      `CREATE INDEX import_rows_unplanned ON register.import_rows (import_id, row_number)
         WHERE plan IS NULL`,
    );
    await db.query(
      `CREATE INDEX import_rows_undone ON register.import_rows (import_id, row_number)
         WHERE NOT done`,
    );
    await db.query(
      `CREATE INDEX import_rows_match_key ON register.import_rows (import_id, match_key, row_number)
         WHERE match_key IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.import_rows`);
    await db.query(`DROP TABLE register.imports`);
  }
}
