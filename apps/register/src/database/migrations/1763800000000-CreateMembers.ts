import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMembers1763800000000 implements MigrationInterface {
  name = 'CreateMembers1763800000000';

  async up(db: QueryRunner): Promise<void> {
    // Logins of a workspace (not people records). An e-mail is a member of a workspace once,
    // whatever its case.
    await db.query(`
      CREATE TABLE register.members (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        email text NOT NULL,
        name text,
        role text NOT NULL CHECK (role IN ('owner','admin','manager','member')),
        status text NOT NULL CHECK (status IN ('invited','active')),
        invited_at timestamptz,
        joined_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE UNIQUE INDEX members_workspace_email ON register.members (workspace_id, lower(email))`,
    );
    await db.query(
      `CREATE INDEX members_workspace_order ON register.members (workspace_id, created_at, id)`,
    );
    await db.query(`
      CREATE TABLE register.invitations (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        member_id text NOT NULL REFERENCES register.members(id) ON DELETE CASCADE,
        token text NOT NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT invitations_token UNIQUE (token)
      )`);
    await db.query(
      `CREATE INDEX invitations_workspace_order ON register.invitations (workspace_id, created_at, id)`,
    );
    await db.query(`CREATE INDEX invitations_member ON register.invitations (member_id)`);
    // Seats in use (active members), kept under the workspace's counter row lock so that two
    // acceptances racing for the last seat cannot both win.
    await db.query(
      `ALTER TABLE register.workspace_counters ADD COLUMN member_count integer NOT NULL DEFAULT 0`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE register.workspace_counters DROP COLUMN member_count`);
    await db.query(`DROP TABLE register.invitations`);
    await db.query(`DROP TABLE register.members`);
  }
}
