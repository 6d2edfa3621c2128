import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console sign-in (issue 12): one-time links (only the SHA-256 of their token) and one password
 * per e-mail, across its workspaces; members are found by e-mail whatever the workspace.
 */
export class CreateSignIn1763910000000 implements MigrationInterface {
  name = 'CreateSignIn1763910000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE register.sign_in_links (
         id text NOT NULL,
         email_lower text NOT NULL,
         token_hash bytea NOT NULL,
         expires_at timestamptz NOT NULL,
         used_at timestamptz,
         created_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT sign_in_links_pkey PRIMARY KEY (id),
         CONSTRAINT sign_in_links_token_hash UNIQUE (token_hash),
         CONSTRAINT sign_in_links_token_hash_check CHECK (octet_length(token_hash) = 32))`,
    );
    await db.query(
      `CREATE INDEX sign_in_links_email ON register.sign_in_links (email_lower, created_at)`,
    );
    await db.query(`CREATE INDEX sign_in_links_expiry ON register.sign_in_links (expires_at)`);
    await db.query(
      `CREATE TABLE register.logins (
         email_lower text NOT NULL,
         password_hash text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         updated_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT logins_pkey PRIMARY KEY (email_lower),
         CONSTRAINT logins_email_lower_check CHECK (email_lower = lower(email_lower)))`,
    );
    await db.query(`CREATE INDEX members_email ON register.members (lower(email))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX register.members_email`);
    await db.query(`DROP TABLE register.logins`);
    await db.query(`DROP TABLE register.sign_in_links`);
  }
}
