import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: `GET /bookings?from&to` reads the bookings that overlap the range through a GiST
 * index of their range (btree_gist gives `=` on the workspace inside it). On the btree
 * (workspace_id, starts_at, id) alone, `starts_at < to` bounds one side only: a week's first
 * page walked every booking that started before the week, and the count read them all.
 * Built in the migration's transaction: writes to the bookings table wait for it (seconds at
 * a million rows). Additive.
 */
export class BookingRangeIndex1764480000000 implements MigrationInterface {
  name = 'BookingRangeIndex1764480000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX bookings_workspace_during ON register.bookings
         USING gist (workspace_id, tstzrange(starts_at, ends_at))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.bookings_workspace_during`);
  }
}
