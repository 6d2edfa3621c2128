import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audits (stock-takes): an audit row with live counters, and one item per asset it concerns
 * (expected at start, scanned, or both). Additive.
 *
 * - The location and category keep their name at start (`location_name`, `category_name`), and
 *   their keys are `ON DELETE SET NULL`: deleting one an audit refers to leaves history whole.
 * - Items are keyed (audit_id, asset_id) (a scan's probe) and indexed (audit_id, state,
 *   asset_id) (the lists and the counts by state) and (audit_id, asset_id) WHERE NOT settled
 *   (the completion job's batches). No key to the asset: a binned or purged asset's items stay.
 * - Audits a job has work on (`starting`, `completing`) are found by a partial index.
 */
export class CreateAudits1764570000000 implements MigrationInterface {
  name = 'CreateAudits1764570000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.audits (
        id text NOT NULL,
        workspace_id text NOT NULL,
        name text NOT NULL,
        status text NOT NULL DEFAULT 'starting',
        location_id text,
        location_name text,
        include_children boolean NOT NULL DEFAULT false,
        category_id text,
        category_name text,
        asset_ids text[],
        expected integer NOT NULL DEFAULT 0,
        found integer NOT NULL DEFAULT 0,
        misplaced integer NOT NULL DEFAULT 0,
        unexpected integer NOT NULL DEFAULT 0,
        progress_done integer,
        progress_total integer,
        due_at timestamptz,
        move_found boolean,
        mark_missing_lost boolean,
        created_by jsonb NOT NULL,
        completed_by jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        cancelled_at timestamptz,
        CONSTRAINT audits_pkey PRIMARY KEY (id),
        CONSTRAINT audits_location_id_fkey FOREIGN KEY (location_id)
          REFERENCES register.locations(id) ON DELETE SET NULL,
        CONSTRAINT audits_category_id_fkey FOREIGN KEY (category_id)
          REFERENCES register.categories(id) ON DELETE SET NULL,
        CONSTRAINT audits_status_check
          CHECK (status IN ('starting', 'open', 'completing', 'completed', 'cancelled'))
      )`);
    await db.query(
      `CREATE INDEX audits_workspace_created ON register.audits (workspace_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX audits_workspace_status ON register.audits
         (workspace_id, status, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX audits_pending_jobs ON register.audits (updated_at)
         WHERE status IN ('starting', 'completing')`,
    );
    await db.query(`
      CREATE TABLE register.audit_items (
        audit_id text NOT NULL,
        asset_id text NOT NULL,
        workspace_id text NOT NULL,
        asset_name text NOT NULL,
        asset_tag text NOT NULL,
        expected boolean NOT NULL,
        state text NOT NULL,
        expected_location_id text,
        scanned_at timestamptz,
        scan_location_id text,
        settled boolean NOT NULL DEFAULT false,
        CONSTRAINT audit_items_pkey PRIMARY KEY (audit_id, asset_id),
        CONSTRAINT audit_items_audit_id_fkey FOREIGN KEY (audit_id)
          REFERENCES register.audits(id) ON DELETE CASCADE,
        CONSTRAINT audit_items_state_check
          CHECK (state IN ('found', 'missing', 'unexpected', 'misplaced'))
      )`);
    await db.query(
      `CREATE INDEX audit_items_state ON register.audit_items (audit_id, state, asset_id)`,
    );
    await db.query(
      `CREATE INDEX audit_items_scanned ON register.audit_items (audit_id, scanned_at, asset_id)
         WHERE scanned_at IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX audit_items_unsettled ON register.audit_items (audit_id, asset_id)
         WHERE NOT settled`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.audit_items`);
    await db.query(`DROP TABLE register.audits`);
  }
}
