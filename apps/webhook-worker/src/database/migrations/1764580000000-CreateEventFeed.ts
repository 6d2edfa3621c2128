import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 35, item 1: the change feed. Every event the worker consumes, kept for the feed's
 * retention with a position from a sequence. Positions are taken under one advisory lock held
 * to the commit (appendToFeed), so they commit in order: a reader that has seen position N has
 * seen every event at or below it, and no event that commits later is ever below it. The
 * horizon row says up to which position the feed has been pruned: a cursor below it may have
 * missed events and is answered 410. Additive: the version before runs beside it, unaware.
 */
export class CreateEventFeed1764580000000 implements MigrationInterface {
  name = 'CreateEventFeed1764580000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE SEQUENCE delivery.event_feed_position AS bigint`);
    await db.query(`
      CREATE TABLE delivery.event_feed (
        position bigint NOT NULL,
        event_id text NOT NULL,
        workspace_id text NOT NULL,
        event text NOT NULL,
        payload jsonb NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT event_feed_pkey PRIMARY KEY (position),
        CONSTRAINT event_feed_event_id UNIQUE (event_id)
      )`);
    await db.query(
      `CREATE INDEX event_feed_workspace ON delivery.event_feed (workspace_id, position)`,
    );
    await db.query(`
      CREATE TABLE delivery.event_feed_horizon (
        id smallint NOT NULL DEFAULT 1,
        pruned_through bigint NOT NULL DEFAULT 0,
        pruned_at timestamptz,
        CONSTRAINT event_feed_horizon_pkey PRIMARY KEY (id),
        CONSTRAINT event_feed_horizon_one CHECK (id = 1)
      )`);
    await db.query(`INSERT INTO delivery.event_feed_horizon (id) VALUES (1)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery.event_feed_horizon`);
    await db.query(`DROP TABLE delivery.event_feed`);
    await db.query(`DROP SEQUENCE delivery.event_feed_position`);
  }
}
