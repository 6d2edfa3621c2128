import type {
  ActivityChange,
  ActivityEntry,
  ActivityFilter,
  ActivityRecord,
  ActivityRecordType,
  ActivitySource,
  ActorType,
} from '@custodian/contracts';
import { EntitySchema, type EntityManager, type QueryRunner } from 'typeorm';
import { newId } from './ids';

/** A row of an app's activity table: one change to one record. */
export interface ActivityRow {
  id: string;
  workspace_id: string;
  at: Date;
  source: ActivitySource;
  actor_type: ActorType;
  actor_id: string | null;
  actor_name: string | null;
  record_type: ActivityRecordType;
  record_id: string;
  record_name: string | null;
  action: string;
  related_id: string | null;
  related_name: string | null;
  changes: ActivityChange[];
}

/**
 * The activity table of an app's schema (`register.activity`, `gateway.activity`,
 * `delivery.activity`): each app records the changes to the records it owns in the
 * transaction of the change, and the console merges the three by id (ULIDs, time-ordered).
 */
export function activityEntity(schema: string): EntitySchema<ActivityRow> {
  return new EntitySchema<ActivityRow>({
    name: `${schema}.activity`,
    schema,
    tableName: 'activity',
    columns: {
      id: { type: 'text', primary: true, primaryKeyConstraintName: 'activity_pkey' },
      workspace_id: { type: 'text' },
      at: { type: 'timestamptz', default: () => 'now()' },
      source: { type: 'text' },
      actor_type: { type: 'text' },
      actor_id: { type: 'text', nullable: true },
      actor_name: { type: 'text', nullable: true },
      record_type: { type: 'text' },
      record_id: { type: 'text' },
      record_name: { type: 'text', nullable: true },
      action: { type: 'text' },
      related_id: { type: 'text', nullable: true },
      related_name: { type: 'text', nullable: true },
      changes: { type: 'jsonb' },
    },
    indices: [
      { name: 'activity_by_workspace', columns: ['workspace_id', 'id'] },
      { name: 'activity_by_record', columns: ['workspace_id', 'record_id', 'id'] },
      {
        name: 'activity_by_related',
        columns: ['workspace_id', 'related_id', 'id'],
        where: 'related_id IS NOT NULL',
      },
    ],
  });
}

/**
 * The migration step that creates an app's activity table. Migrations that ran call it, so it
 * never changes: a new shape is a new migration per app.
 */
export async function createActivityTable(db: QueryRunner, schema: string): Promise<void> {
  await db.query(`
    CREATE TABLE ${schema}.activity (
      id text PRIMARY KEY,
      workspace_id text NOT NULL,
      at timestamptz NOT NULL DEFAULT now(),
      source text NOT NULL,
      actor_type text NOT NULL,
      actor_id text,
      actor_name text,
      record_type text NOT NULL,
      record_id text NOT NULL,
      record_name text,
      action text NOT NULL,
      related_id text,
      related_name text,
      changes jsonb NOT NULL
    )`);
  await db.query(`CREATE INDEX activity_by_workspace ON ${schema}.activity (workspace_id, id)`);
  await db.query(
    `CREATE INDEX activity_by_record ON ${schema}.activity (workspace_id, record_id, id)`,
  );
  await db.query(
    `CREATE INDEX activity_by_related ON ${schema}.activity (workspace_id, related_id, id)
     WHERE related_id IS NOT NULL`,
  );
}

/**
 * Writes and reads an app's activity table. `record` takes the change's transaction, so a
 * change that rolls back leaves no entry and an entry never describes a change that did not
 * happen.
 */
export class ActivityLog {
  constructor(readonly schema: string) {}

  async record(manager: EntityManager, workspaceId: string, entry: ActivityRecord): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.schema}.activity (id, workspace_id, at, source, actor_type, actor_id,
         actor_name, record_type, record_id, record_name, action, related_id, related_name,
         changes)
       VALUES ($1, $2, date_trunc('milliseconds', clock_timestamp()), $3, $4, $5, $6, $7, $8,
         $9, $10, $11, $12, $13)`,
      [
        newId('act'),
        workspaceId,
        entry.source,
        entry.actor.type,
        entry.actor.id,
        entry.actor.name,
        entry.recordType,
        entry.recordId,
        entry.recordName,
        entry.action,
        entry.relatedId ?? null,
        entry.relatedName ?? null,
        JSON.stringify(entry.changes ?? []),
      ],
    );
  }

  /**
   * Up to `filter.limit` + 1 entries, newest first (the extra one tells the caller there is
   * more). A record filter also finds the entries that name it as their related record.
   */
  async page(
    manager: EntityManager,
    workspaceId: string,
    filter: ActivityFilter,
  ): Promise<ActivityEntry[]> {
    const params: unknown[] = [workspaceId];
    const where = ['workspace_id = $1'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.record_type) where.push(`record_type = ${param(filter.record_type)}`);
    if (filter.record_id) {
      const id = param(filter.record_id);
      where.push(`(record_id = ${id} OR related_id = ${id})`);
    }
    if (filter.source) where.push(`source = ${param(filter.source)}`);
    if (filter.actor_id) where.push(`actor_id = ${param(filter.actor_id)}`);
    if (filter.action) where.push(`action = ${param(filter.action)}`);
    if (filter.before) where.push(`id < ${param(filter.before)}`);
    const rows = await manager.query<ActivityRow[]>(
      `SELECT * FROM ${this.schema}.activity WHERE ${where.join(' AND ')}
       ORDER BY id DESC LIMIT ${param(filter.limit + 1)}`,
      params,
    );
    return rows.map(toEntry);
  }
}

function toEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    source: row.source,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    record_type: row.record_type,
    record_id: row.record_id,
    record_name: row.record_name,
    action: row.action,
    related_id: row.related_id,
    related_name: row.related_name,
    changes: row.changes,
  };
}

/**
 * The fields that differ between two versions of a record, as text. `fields` maps each
 * field's API name to how it reads off the record; values are compared as that text.
 */
export function changedFields<T>(
  before: T | null,
  after: T | null,
  fields: Record<string, (record: T) => unknown>,
): ActivityChange[] {
  const changes: ActivityChange[] = [];
  for (const [field, read] of Object.entries(fields)) {
    const from = before === null ? null : asText(read(before));
    const to = after === null ? null : asText(read(after));
    if (from !== to) changes.push({ field, from, to });
  }
  return changes;
}

/** Custom fields as changes named `custom_fields.<key>`, each key of either version once. */
export function changedCustomFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ActivityChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return changedFields(
    before,
    after,
    Object.fromEntries(keys.map((key) => [`custom_fields.${key}`, (values) => values[key]])),
  );
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
