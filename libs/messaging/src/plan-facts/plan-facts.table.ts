import {
  parsePlanFacts,
  type EffectiveLimits,
  type PlanName,
  type PublishedEvent,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import { EntitySchema, type EntityManager, type QueryRunner } from 'typeorm';

/** A row of an app's copy of plan facts (`register.workspace_plans`, ...). */
export interface WorkspacePlanRow {
  workspace_id: string;
  plan: PlanName;
  api_access: boolean;
  limits: EffectiveLimits;
  /** The gateway's `updated_at` of the workspace when it stated these facts. */
  as_of: Date;
  received_at: Date;
}

/**
 * The plan-facts table of an app's schema: one shape for every app that keeps a copy. The
 * entity is what the schema-drift check compares with the migration below.
 */
export function workspacePlansEntity(schema: string): EntitySchema<WorkspacePlanRow> {
  return new EntitySchema<WorkspacePlanRow>({
    name: `${schema}.workspace_plans`,
    schema,
    tableName: 'workspace_plans',
    columns: {
      workspace_id: {
        type: 'text',
        primary: true,
        primaryKeyConstraintName: 'workspace_plans_pkey',
      },
      plan: { type: 'text' },
      api_access: { type: 'boolean' },
      limits: { type: 'jsonb' },
      as_of: { type: 'timestamptz' },
      received_at: { type: 'timestamptz', default: () => 'now()' },
    },
  });
}

/**
 * The migration step that creates an app's plan-facts table. Migrations that ran call it, so
 * it never changes: a new shape is a new migration per app.
 */
export async function createWorkspacePlansTable(db: QueryRunner, schema: string): Promise<void> {
  await db.query(`
      CREATE TABLE ${schema}.workspace_plans (
        workspace_id text PRIMARY KEY,
        plan text NOT NULL,
        api_access boolean NOT NULL,
        limits jsonb NOT NULL,
        as_of timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
}

/**
 * Stores facts unless the copy already holds facts as new or newer: a redelivery, or facts
 * overtaken by a later change, change nothing. True when the row was written.
 */
export async function storePlanFacts(
  db: EntityManager,
  schema: string,
  facts: WorkspacePlanFacts,
): Promise<boolean> {
  const rows = await db.query<unknown[]>(
    `INSERT INTO ${schema}.workspace_plans (workspace_id, plan, api_access, limits, as_of)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (workspace_id) DO UPDATE
       SET plan = EXCLUDED.plan, api_access = EXCLUDED.api_access, limits = EXCLUDED.limits,
           as_of = EXCLUDED.as_of, received_at = now()
       WHERE ${schema}.workspace_plans.as_of < EXCLUDED.as_of
     RETURNING workspace_id`,
    [facts.workspace_id, facts.plan, facts.api_access, JSON.stringify(facts.limits), facts.as_of],
  );
  return rows.length > 0;
}

/**
 * A plan-facts message as the gateway's relay publishes it (the outbox envelope, the facts as
 * its `data`): the envelope as parsed (empty when the body is not JSON) and the facts, or what
 * is wrong with them. Both readers (PlanFactsConsumer, the worker's events queue) read it so.
 */
export function readPlanFactsMessage(content: Buffer): {
  envelope: Partial<PublishedEvent>;
  facts: WorkspacePlanFacts | string;
} {
  let envelope: Partial<PublishedEvent>;
  try {
    envelope = (JSON.parse(content.toString('utf8')) as Partial<PublishedEvent> | null) ?? {};
  } catch {
    envelope = {};
  }
  return { envelope, facts: parsePlanFacts(envelope.data) };
}
