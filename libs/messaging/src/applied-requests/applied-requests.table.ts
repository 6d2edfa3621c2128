import type { RetentionRule } from '@custodian/persistence';
import { EntitySchema, type QueryRunner } from 'typeorm';

/** A row of an app's `applied_requests`: a write request applied, with the reply it got. */
export interface AppliedRequestRow {
  /** The RPC request id: a UUID per request, or derived from an Idempotency-Key. */
  id: string;
  workspace_id: string;
  /** For an Idempotency-Key: a hash of the method, path and body the key was first used with. */
  fingerprint: string | null;
  /**
   * The reply (null only inside its own uncommitted transaction); json, not jsonb, so a replay
   * has the first answer's exact key order.
   */
  reply: unknown;
  created_at: Date;
  expires_at: Date;
}

/**
 * The applied-requests table of an app's schema (AppliedWrites). The register's entity
 * predates this one and keeps its own class; the shape is the same. The entity is what the
 * schema-drift check compares with createAppliedRequestsTable.
 */
export function appliedRequestsEntity(schema: string): EntitySchema<AppliedRequestRow> {
  return new EntitySchema<AppliedRequestRow>({
    name: `${schema}.applied_requests`,
    schema,
    tableName: 'applied_requests',
    columns: {
      id: { type: 'text', primary: true, primaryKeyConstraintName: 'applied_requests_pkey' },
      workspace_id: { type: 'text' },
      fingerprint: { type: 'text', nullable: true },
      reply: { type: 'json', nullable: true },
      created_at: { type: 'timestamptz', default: () => 'now()' },
      expires_at: { type: 'timestamptz' },
    },
    indices: [{ name: 'applied_requests_expiry', columns: ['expires_at'] }],
  });
}

/**
 * The migration step that creates an app's applied-requests table. Migrations that ran call
 * it, so it never changes: a new shape is a new migration per app.
 */
export async function createAppliedRequestsTable(db: QueryRunner, schema: string): Promise<void> {
  await db.query(
    `CREATE TABLE ${schema}.applied_requests (
       id text NOT NULL,
       workspace_id text NOT NULL,
       fingerprint text,
       reply json,
       created_at timestamptz NOT NULL DEFAULT now(),
       expires_at timestamptz NOT NULL,
       CONSTRAINT applied_requests_pkey PRIMARY KEY (id))`,
  );
  await db.query(`CREATE INDEX applied_requests_expiry ON ${schema}.applied_requests (expires_at)`);
}

/** What a pruner deletes: the records whose window has passed, along the expiry index. */
export function appliedRequestsRetention(schema: string): RetentionRule {
  return { table: `${schema}.applied_requests`, where: 'expires_at <= now()', parameters: [] };
}
