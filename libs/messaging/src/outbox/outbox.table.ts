import type { EventKey } from '@custodian/contracts';
import { EntitySchema, type QueryRunner } from 'typeorm';

/** A row of an app's outbox: an event written with the change it describes. */
export interface OutboxRow {
  id: string;
  workspace_id: string;
  /** The event's key, or an internal routing key (`internal.`: plan facts). */
  event: EventKey | `internal.${string}`;
  data: Record<string, unknown>;
  created_at: Date;
  published_at: Date | null;
  /**
   * The context of the request that wrote it (its X-Request-Id), published as the event
   * message's headers, so the deliveries it causes name the request; null when no request
   * did (a scheduled sweep).
   */
  context: Record<string, string> | null;
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
      context: { type: 'jsonb', nullable: true },
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

/**
 * The third outbox migration step (issue 15): the context of the request that wrote a row.
 * Nullable with no default, so adding it rewrites nothing and writers of the previous version
 * (which do not name it) keep working during a rolling deploy. Frozen like createOutboxTable.
 */
export async function addOutboxContext(db: QueryRunner, schema: string): Promise<void> {
  await db.query(`ALTER TABLE ${schema}.outbox ADD COLUMN context jsonb`);
}

/**
 * The channel an app's outbox trigger notifies and its relay listens on. Notifications are per
 * database, so stacks that share a Postgres server but not a database never hear each other.
 */
export function outboxChannel(schema: string): string {
  // A longer name would be cut short by LISTEN and refused by pg_notify (63 bytes at most).
  if (!/^[a-z_][a-z0-9_]{0,45}$/.test(schema))
    throw new Error(`not a plain schema name: ${schema}`);
  return `custodian_outbox_${schema}`;
}

/**
 * The fourth outbox migration step: a statement trigger that notifies outboxChannel(schema)
 * when rows are inserted. Postgres delivers it at commit (never for a rollback) and folds the
 * notifications of one transaction into one, so a request that writes several events wakes
 * the relay once. Frozen like createOutboxTable, and so is outboxChannel, whose name it bakes
 * into the function: a new name is a new migration per app.
 */
export async function notifyOnOutboxInsert(db: QueryRunner, schema: string): Promise<void> {
  await db.query(`
      CREATE FUNCTION ${schema}.outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${outboxChannel(schema)}', '');
        RETURN NULL;
      END
      $$`);
  await db.query(`
      CREATE TRIGGER outbox_notify AFTER INSERT ON ${schema}.outbox
      FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.outbox_notify()`);
}

/** Undoes notifyOnOutboxInsert. */
export async function dropOutboxNotify(db: QueryRunner, schema: string): Promise<void> {
  outboxChannel(schema); // the same check on the name
  await db.query(`DROP TRIGGER outbox_notify ON ${schema}.outbox`);
  await db.query(`DROP FUNCTION ${schema}.outbox_notify()`);
}
