import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: asset requests. A member asks for a given asset (`asset_id`) or any asset of a
 * category (`category_id`), exactly one, for now or for a range (both ends or neither); a
 * manager approves (with the asset given and how: a check-out now, or a booking, whose id is
 * kept) or rejects with a reason. No foreign key to the asset: an asset moved to the bin
 * leaves register.assets, and the request still names it.
 *
 * Additive.
 */
export class CreateAssetRequests1764470000000 implements MigrationInterface {
  name = 'CreateAssetRequests1764470000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.asset_requests (
        id text NOT NULL,
        workspace_id text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        person_id text NOT NULL,
        asset_id text,
        category_id text,
        starts_at timestamptz,
        ends_at timestamptz,
        note text,
        created_by text,
        decided_by text,
        decision_note text,
        decided_at timestamptz,
        given_asset_id text,
        fulfilled_by text,
        booking_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT asset_requests_pkey PRIMARY KEY (id),
        CONSTRAINT asset_requests_person_id_fkey FOREIGN KEY (person_id)
          REFERENCES register.people(id),
        CONSTRAINT asset_requests_category_id_fkey FOREIGN KEY (category_id)
          REFERENCES register.categories(id),
        CONSTRAINT asset_requests_booking_id_fkey FOREIGN KEY (booking_id)
          REFERENCES register.bookings(id),
        CONSTRAINT asset_requests_status_check
          CHECK (status IN ('pending', 'approved', 'rejected')),
        CONSTRAINT asset_requests_fulfilled_by_check
          CHECK (fulfilled_by IS NULL OR fulfilled_by IN ('check_out', 'booking')),
        CONSTRAINT asset_requests_subject_check CHECK ((asset_id IS NULL) <> (category_id IS NULL)),
        CONSTRAINT asset_requests_range_check
          CHECK ((starts_at IS NULL) = (ends_at IS NULL) AND (ends_at IS NULL OR ends_at > starts_at))
      )`);
    // The inbox (pending first asked for, newest first) and a member's own requests.
    await db.query(
      `CREATE INDEX asset_requests_workspace_status
        ON register.asset_requests (workspace_id, status, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX asset_requests_workspace_created
        ON register.asset_requests (workspace_id, created_at, id)`,
    );
    await db.query(
      `CREATE INDEX asset_requests_workspace_creator
        ON register.asset_requests (workspace_id, created_by, created_at)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.asset_requests`);
  }
}
