import { PLAN_FACTS_ROUTING_KEY, type WorkspacePlanFacts } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import { effectiveLimits } from '@custodian/plans';
import type { MigrationInterface, QueryRunner } from 'typeorm';

interface Row {
  id: string;
  plan: WorkspacePlanFacts['plan'];
  api_access: boolean;
  overrides: Record<string, number | null>;
  updated_at: Date;
  rate_per_minute: number | null;
  monthly_quota: string | null;
  assets: number | null;
  people: number | null;
  seats: number | null;
}

/**
 * The plan facts of every workspace that exists, stated once through the outbox (ADR 0019), so
 * that the register's and the worker's copies, which start empty, hold every workspace without
 * either asking the gateway. From here on the gateway states them with each creation and
 * change. `down` has nothing to undo: published rows are pruned like any other.
 */
export class StatePlanFacts1764000000000 implements MigrationInterface {
  name = 'StatePlanFacts1764000000000';

  async up(db: QueryRunner): Promise<void> {
    const rows = (await db.query(
      `SELECT w.id, w.plan, w.overrides, w.updated_at, p.api_access, p.rate_per_minute,
              p.monthly_quota, p.assets, p.people, p.seats
       FROM gateway.workspaces w JOIN gateway.plans p ON p.name = w.plan ORDER BY w.id`,
    )) as Row[];
    for (const row of rows) {
      const facts: WorkspacePlanFacts = {
        workspace_id: row.id,
        plan: row.plan,
        api_access: row.api_access,
        limits: effectiveLimits(
          {
            ratePerMinute: row.rate_per_minute,
            monthlyQuota: row.monthly_quota === null ? null : Number(row.monthly_quota),
            assets: row.assets,
            people: row.people,
            seats: row.seats,
          },
          row.overrides,
        ),
        as_of: row.updated_at.toISOString(),
      };
      await db.query(
        `INSERT INTO gateway.outbox (id, workspace_id, event, data) VALUES ($1, $2, $3, $4)`,
        [newId('evt'), row.id, PLAN_FACTS_ROUTING_KEY, JSON.stringify(facts)],
      );
    }
  }

  async down(): Promise<void> {
    // Facts stated are facts: the readers' copies keep them, and the rows are pruned.
  }
}
