import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32: a member's calendar feed, the secret URL calendar apps subscribe to. One row per
 * member (a member row belongs to one workspace, so one feed per member per workspace), holding
 * only the SHA-256 of the URL's token (32 random bytes): a database dump opens no feed. The
 * row goes with its member (ON DELETE CASCADE), so a removed member's URL stops working.
 * Additive: the version before never reads the table.
 */
export class CreateCalendarFeeds1764450000000 implements MigrationInterface {
  name = 'CreateCalendarFeeds1764450000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE register.calendar_feeds (
        member_id text NOT NULL,
        workspace_id text NOT NULL,
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        CONSTRAINT calendar_feeds_pkey PRIMARY KEY (member_id),
        CONSTRAINT calendar_feeds_token_hash UNIQUE (token_hash),
        CONSTRAINT calendar_feeds_token_hash_check CHECK (octet_length(token_hash) = 32),
        CONSTRAINT calendar_feeds_member_id_fkey FOREIGN KEY (member_id)
          REFERENCES register.members (id) ON DELETE CASCADE
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE register.calendar_feeds`);
  }
}
