import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Who created a key in the console (its e-mail); keys from the admin CLI keep null. */
export class KeyCreatedBy1763920000000 implements MigrationInterface {
  name = 'KeyCreatedBy1763920000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys ADD COLUMN created_by text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE gateway.api_keys DROP COLUMN created_by`);
  }
}
