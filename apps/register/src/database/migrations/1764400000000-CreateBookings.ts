import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: bookings. A booking holds its assets for its range through one row per asset in
 * register.booking_assets; the exclusion constraint refuses two holding rows of one asset whose
 * ranges overlap, so two bookings racing for one slot cannot both commit, whatever the
 * service checked before (btree_gist gives `=` on text inside a GiST index). `holds` is false
 * once a booking no longer holds its assets (cancelled, completed, no-show): the row stays, for
 * the booking's list of assets, outside the constraint. Additive.
 */
export class CreateBookings1764400000000 implements MigrationInterface {
  name = 'CreateBookings1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS btree_gist`);
    await db.query(`
      CREATE TABLE register.bookings (
        id text NOT NULL,
        workspace_id text NOT NULL,
        person_id text NOT NULL,
        status text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        notes text,
        cancel_reason text,
        cancel_note text,
        cancelled_at timestamptz,
        checked_out_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT bookings_pkey PRIMARY KEY (id),
        CONSTRAINT bookings_person_id_fkey FOREIGN KEY (person_id) REFERENCES register.people(id),
        CONSTRAINT bookings_status_check CHECK (status IN
          ('requested', 'confirmed', 'cancelled', 'checked_out', 'completed', 'overdue', 'no_show')),
        CONSTRAINT bookings_cancel_reason_check CHECK (cancel_reason IN ('cancelled', 'rejected')),
        CONSTRAINT bookings_range_check CHECK (ends_at > starts_at)
      )`);
    await db.query(
      `CREATE INDEX bookings_workspace_starts ON register.bookings (workspace_id, starts_at, id)`,
    );
    await db.query(
      `CREATE INDEX bookings_workspace_person ON register.bookings (workspace_id, person_id, starts_at)`,
    );
    await db.query(`
      CREATE TABLE register.booking_assets (
        booking_id text NOT NULL,
        asset_id text NOT NULL,
        workspace_id text NOT NULL,
        during tstzrange NOT NULL,
        holds boolean NOT NULL,
        returned_at timestamptz,
        CONSTRAINT booking_assets_pkey PRIMARY KEY (booking_id, asset_id),
        CONSTRAINT booking_assets_booking_id_fkey FOREIGN KEY (booking_id)
          REFERENCES register.bookings(id) ON DELETE CASCADE,
        CONSTRAINT booking_assets_no_overlap EXCLUDE USING gist
          (workspace_id WITH =, asset_id WITH =, during WITH &&) WHERE (holds)
      )`);
    await db.query(
      `CREATE INDEX booking_assets_asset ON register.booking_assets (workspace_id, asset_id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.booking_assets`);
    await db.query(`DROP TABLE register.bookings`);
  }
}
