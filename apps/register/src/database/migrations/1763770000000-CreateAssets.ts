import { createOutboxTable } from '@custodian/messaging';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAssets1763770000000 implements MigrationInterface {
  name = 'CreateAssets1763770000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await db.query(`
      CREATE TABLE register.categories (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE UNIQUE INDEX categories_workspace_name ON register.categories (workspace_id, lower(name))`,
    );
    await db.query(`
      CREATE TABLE register.locations (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE UNIQUE INDEX locations_workspace_name ON register.locations (workspace_id, lower(name))`,
    );
    // One row per workspace: serialises creates (asset tag sequence, exact limit check).
    await db.query(`
      CREATE TABLE register.workspace_counters (
        workspace_id text PRIMARY KEY,
        asset_tag_seq bigint NOT NULL DEFAULT 0,
        asset_count integer NOT NULL DEFAULT 0
      )`);
    await db.query(`
      CREATE TABLE register.assets (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        name text NOT NULL,
        sku text,
        status text NOT NULL DEFAULT 'active'
          CHECK (status IN ('active','maintenance','retired','lost','stolen','inactive')),
        brand text,
        model text,
        serial_number text,
        asset_tag text NOT NULL,
        category_id text REFERENCES register.categories(id),
        location_id text REFERENCES register.locations(id),
        assigned_to_id text,
        assigned_at timestamptz,
        custom_fields jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        search_text text GENERATED ALWAYS AS (lower(
          name || chr(31) || coalesce(asset_tag, '') || chr(31) || coalesce(serial_number, '')
          || chr(31) || coalesce(brand, '') || chr(31) || coalesce(model, '')
          || chr(31) || coalesce(sku, ''))) STORED,
        CONSTRAINT assets_workspace_tag UNIQUE (workspace_id, asset_tag)
      )`);
    await db.query(
      `CREATE INDEX assets_workspace_order ON register.assets (workspace_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX assets_workspace_status ON register.assets (workspace_id, status, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX assets_search_trgm ON register.assets USING gin (search_text gin_trgm_ops)`,
    );
    await createOutboxTable(db, 'register');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.outbox`);
    await db.query(`DROP TABLE register.assets`);
    await db.query(`DROP TABLE register.workspace_counters`);
    await db.query(`DROP TABLE register.locations`);
    await db.query(`DROP TABLE register.categories`);
  }
}
