import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31, item 1: fan-out bounded.
 *
 * - An event's envelope and context are stored once, in delivery.event_payloads, and its
 *   deliveries reference it (they each held a copy: 2,000 endpoints made 2,000 copies). The
 *   copies are moved and the columns dropped, so this version's worker cannot run beside the
 *   previous one: stop the old workers, migrate, start the new (docs/operations.md). Events
 *   wait in their queue meanwhile; pending deliveries wait in the table.
 * - A workspace has one endpoint per URL. Endpoints that already share a URL are kept (each has
 *   its own secret, which its receiver verifies) and marked `duplicate_url`, outside the unique
 *   index, until someone deletes them; the oldest of each URL stays unmarked, so no new
 *   endpoint can take that URL again.
 */
export class BoundedFanOut1764100000000 implements MigrationInterface {
  name = 'BoundedFanOut1764100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE delivery.event_payloads (
        event_id text NOT NULL,
        payload jsonb NOT NULL,
        context jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT event_payloads_pkey PRIMARY KEY (event_id))`);
    await db.query(`
      INSERT INTO delivery.event_payloads (event_id, payload, context, created_at)
      SELECT DISTINCT ON (event_id) event_id, payload, context, created_at
      FROM delivery.deliveries ORDER BY event_id, created_at`);
    await db.query(`CREATE INDEX event_payloads_created ON delivery.event_payloads (created_at)`);
    await db.query(`
      ALTER TABLE delivery.deliveries
        DROP COLUMN payload, DROP COLUMN context,
        ADD CONSTRAINT deliveries_event_id_fkey FOREIGN KEY (event_id)
          REFERENCES delivery.event_payloads (event_id)`);

    await db.query(
      `ALTER TABLE delivery.endpoints ADD COLUMN duplicate_url boolean NOT NULL DEFAULT false`,
    );
    await db.query(`
      UPDATE delivery.endpoints e SET duplicate_url = true
      WHERE EXISTS (
        SELECT 1 FROM delivery.endpoints o
        WHERE o.workspace_id = e.workspace_id AND o.url = e.url
          AND (o.created_at, o.id) < (e.created_at, e.id))`);
    await db.query(`
      CREATE UNIQUE INDEX endpoints_workspace_url ON delivery.endpoints (workspace_id, url)
      WHERE NOT duplicate_url`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX delivery.endpoints_workspace_url`);
    await db.query(`ALTER TABLE delivery.endpoints DROP COLUMN duplicate_url`);
    await db.query(`
      ALTER TABLE delivery.deliveries DROP CONSTRAINT deliveries_event_id_fkey,
        ADD COLUMN payload jsonb, ADD COLUMN context jsonb`);
    await db.query(`
      UPDATE delivery.deliveries d SET payload = p.payload, context = p.context
      FROM delivery.event_payloads p WHERE p.event_id = d.event_id`);
    await db.query(`ALTER TABLE delivery.deliveries ALTER COLUMN payload SET NOT NULL`);
    await db.query(`DROP TABLE delivery.event_payloads`);
  }
}
