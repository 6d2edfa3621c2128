import type { EventKey } from '@custodian/contracts';
import { EntitySchema, type QueryRunner } from 'typeorm';

/** A row of an app's outbox: an event written with the change it describes. */
export interface OutboxRow {
  id: string;
  workspace_id: string;
  event: EventKey;
  data: Record<string, unknown>;
  created_at: Date;
  published_at: Date | null;
}

/**
 * The outbox table of an app's schema (`gateway.outbox`, `register.outbox`): one shape for
 * every app that writes events. The entity is what the schema-drift check compares with the
 * migration below.
 */
export function outboxEntity(schema: string): EntitySchema<OutboxRow> {
  return new EntitySchema<OutboxRow>({
    name: `${schema}.outbox`,
    schema,
    tableName: 'outbox',
    columns: {
      id: { type: 'text', primary: true, primaryKeyConstraintName: 'outbox_pkey' },
      workspace_id: { type: 'text' },
      event: { type: 'text' },
      data: { type: 'jsonb' },
      created_at: { type: 'timestamptz', default: () => 'now()' },
      published_at: { type: 'timestamptz', nullable: true },
    },
    indices: [
      { name: 'outbox_unpublished', columns: ['created_at', 'id'], where: 'published_at IS NULL' },
      { name: 'outbox_published', columns: ['published_at'], where: 'published_at IS NOT NULL' },
    ],
  });
}

/**
 * The migration step that creates an app's outbox table and its index of unpublished rows.
 * Migrations that ran call it, so it never changes: a new shape is a new migration per app.
 */
export async function createOutboxTable(db: QueryRunner, schema: string): Promise<void> {
  await db.query(`
      CREATE TABLE ${schema}.outbox (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        event text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
  await db.query(
    `CREATE INDEX outbox_unpublished ON ${schema}.outbox (created_at, id) WHERE published_at IS NULL`,
  );
}

/**
 * The second outbox migration step: an index of published rows by when they were published,
 * which the relay's pruning walks. Frozen like createOutboxTable.
 */
export async function indexPublishedOutbox(db: QueryRunner, schema: string): Promise<void> {
  await db.query(
    `CREATE INDEX outbox_published ON ${schema}.outbox (published_at) WHERE published_at IS NOT NULL`,
  );
}
