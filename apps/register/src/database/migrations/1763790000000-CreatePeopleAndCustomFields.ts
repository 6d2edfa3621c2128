import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePeopleAndCustomFields1763790000000 implements MigrationInterface {
  name = 'CreatePeopleAndCustomFields1763790000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.departments (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE UNIQUE INDEX departments_workspace_name ON register.departments (workspace_id, lower(name))`,
    );
    await db.query(`
      CREATE TABLE register.people (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        full_name text NOT NULL,
        email text,
        employee_number text,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        department_id text REFERENCES register.departments(id),
        location_id text REFERENCES register.locations(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        search_text text GENERATED ALWAYS AS (lower(
          full_name || chr(31) || coalesce(email, '') || chr(31) || coalesce(employee_number, '')
        )) STORED
      )`);
    await db.query(
      `CREATE INDEX people_workspace_order ON register.people (workspace_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX people_search_trgm ON register.people USING gin (search_text gin_trgm_ops)`,
    );
    await db.query(
      `ALTER TABLE register.workspace_counters ADD COLUMN person_count integer NOT NULL DEFAULT 0`,
    );
    // Custody: an asset is held by at most one person of its workspace.
    await db.query(`
      ALTER TABLE register.assets
        ADD CONSTRAINT assets_assigned_to FOREIGN KEY (assigned_to_id) REFERENCES register.people(id)`);
    await db.query(
      `CREATE INDEX assets_holder ON register.assets (assigned_to_id) WHERE assigned_to_id IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE register.custom_fields (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        key text NOT NULL,
        label text NOT NULL,
        type text NOT NULL CHECK (type IN ('text', 'number', 'date', 'boolean', 'select')),
        options text[],
        required boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT custom_fields_workspace_key UNIQUE (workspace_id, key)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.custom_fields`);
    await db.query(`DROP INDEX register.assets_holder`);
    await db.query(`ALTER TABLE register.assets DROP CONSTRAINT assets_assigned_to`);
    await db.query(`ALTER TABLE register.workspace_counters DROP COLUMN person_count`);
    await db.query(`DROP TABLE register.people`);
    await db.query(`DROP TABLE register.departments`);
  }
}
