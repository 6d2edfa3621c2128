import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: booking approval and the workspace's booking settings.
 *
 * - register.booking_settings: one row per workspace that changed a default (approval off, a
 *   60-minute no-show grace); a workspace without a row has the defaults.
 * - bookings.no_show_at: the no-show date the booking was armed with. The grace is a setting
 *   that may change; the due-date handler compares its notice with this column, so a booking
 *   keeps the grace it was made or moved under. Backfilled with the 60 minutes every booking
 *   had so far.
 * - bookings.created_by: the caller's key id (`console:<member id>` for the console), so a
 *   member may cancel or change the booking they asked for and no other.
 * - bookings.confirmed_at: when it was confirmed (at once, or by a manager).
 *
 * Additive: the version before ignores the new columns and writes bookings with
 * no_show_at null, which the handler of this version reads as start plus 60 minutes.
 */
export class BookingApproval1764410000000 implements MigrationInterface {
  name = 'BookingApproval1764410000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.booking_settings (
        workspace_id text NOT NULL,
        approval_required boolean NOT NULL DEFAULT false,
        no_show_grace_minutes integer NOT NULL DEFAULT 60,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT booking_settings_pkey PRIMARY KEY (workspace_id),
        CONSTRAINT booking_settings_grace_check
          CHECK (no_show_grace_minutes BETWEEN 0 AND 10080)
      )`);
    await db.query(`ALTER TABLE register.bookings ADD COLUMN no_show_at timestamptz`);
    await db.query(`ALTER TABLE register.bookings ADD COLUMN created_by text`);
    await db.query(`ALTER TABLE register.bookings ADD COLUMN confirmed_at timestamptz`);
    await db.query(`
      UPDATE register.bookings
         SET no_show_at = starts_at + interval '60 minutes',
             confirmed_at = CASE WHEN status <> 'requested' THEN created_at END`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.bookings DROP COLUMN confirmed_at`);
    await db.query(`ALTER TABLE register.bookings DROP COLUMN created_by`);
    await db.query(`ALTER TABLE register.bookings DROP COLUMN no_show_at`);
    await db.query(`DROP TABLE register.booking_settings`);
  }
}
