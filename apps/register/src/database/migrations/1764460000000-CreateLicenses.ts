import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 33: software licences and their seats.
 *
 * - register.licenses: `seats` null is unlimited; `product_key` holds the key encrypted
 *   (libs/secret-cipher, LICENSE_KEY_SECRETS), never plain; `deleted_at` set is in the bin
 *   (restorable), out of lists and fetches.
 * - register.license_seats: one row per seat held, by a person or by an asset (exactly one);
 *   a released seat is deleted (its event and feed entry keep the record). A person or an
 *   asset holds at most one seat of a licence (the partial unique indexes). The seat count is
 *   kept exact by locking the licence's row for every assign (the service).
 *
 * Additive.
 */
export class CreateLicenses1764460000000 implements MigrationInterface {
  name = 'CreateLicenses1764460000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.licenses (
        id text NOT NULL,
        workspace_id text NOT NULL,
        name text NOT NULL,
        vendor text,
        seats integer,
        expires_on date,
        cost numeric(14, 2),
        notes text,
        product_key text,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT licenses_pkey PRIMARY KEY (id),
        CONSTRAINT licenses_seats_check CHECK (seats IS NULL OR seats > 0)
      )`);
    await db.query(
      `CREATE INDEX licenses_workspace_name ON register.licenses (workspace_id, name, id)`,
    );
    await db.query(`
      CREATE TABLE register.license_seats (
        id text NOT NULL,
        workspace_id text NOT NULL,
        license_id text NOT NULL,
        person_id text,
        asset_id text,
        assigned_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT license_seats_pkey PRIMARY KEY (id),
        CONSTRAINT license_seats_license_id_fkey FOREIGN KEY (license_id)
          REFERENCES register.licenses(id) ON DELETE CASCADE,
        CONSTRAINT license_seats_person_id_fkey FOREIGN KEY (person_id)
          REFERENCES register.people(id),
        CONSTRAINT license_seats_holder_check CHECK ((person_id IS NULL) <> (asset_id IS NULL))
      )`);
    await db.query(
      `CREATE UNIQUE INDEX license_seats_person ON register.license_seats (license_id, person_id)
        WHERE person_id IS NOT NULL`,
    );
    await db.query(
      `CREATE UNIQUE INDEX license_seats_asset ON register.license_seats (license_id, asset_id)
        WHERE asset_id IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX license_seats_holder_person ON register.license_seats (workspace_id, person_id)`,
    );
    await db.query(
      `CREATE INDEX license_seats_holder_asset ON register.license_seats (workspace_id, asset_id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.license_seats`);
    await db.query(`DROP TABLE register.licenses`);
  }
}
