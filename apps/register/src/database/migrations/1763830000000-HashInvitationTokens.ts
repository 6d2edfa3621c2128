import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations keep only the SHA-256 of their token (32 random bytes, so no salt is needed):
 * a database dump alone no longer accepts them. Existing tokens are hashed here, so links
 * already mailed keep working. Down cannot bring the tokens back: it stores the hashes' hex
 * as the token, which no link carries.
 */
export class HashInvitationTokens1763830000000 implements MigrationInterface {
  name = 'HashInvitationTokens1763830000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.invitations ADD COLUMN token_hash bytea`);
    await db.query(
      `UPDATE register.invitations SET token_hash = sha256(convert_to(token, 'UTF8'))`,
    );
    await db.query(`ALTER TABLE register.invitations ALTER COLUMN token_hash SET NOT NULL`);
    await db.query(`ALTER TABLE register.invitations DROP COLUMN token`);
    await db.query(
      `ALTER TABLE register.invitations
       ADD CONSTRAINT invitations_token_hash UNIQUE (token_hash),
       ADD CONSTRAINT invitations_token_hash_check CHECK (octet_length(token_hash) = 32)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.invitations ADD COLUMN token text`);
    await db.query(`UPDATE register.invitations SET token = encode(token_hash, 'hex')`);
    await db.query(`ALTER TABLE register.invitations ALTER COLUMN token SET NOT NULL`);
    await db.query(`ALTER TABLE register.invitations DROP COLUMN token_hash`);
    await db.query(
      `ALTER TABLE register.invitations ADD CONSTRAINT invitations_token UNIQUE (token)`,
    );
  }
}
