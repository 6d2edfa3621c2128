import type { PlanFactsReader, WorkspacePlanFacts } from '@custodian/contracts';
import type { DataSource } from 'typeorm';
import { WorkspacePlans } from './plan-facts.module';
import { storePlanFacts } from './plan-facts.table';

/**
 * For tests of a reader's services: the reader's copy of plan facts on `db`, with each of
 * `facts` stored as the plan-facts consumer stores them (stated now), read without waiting.
 */
export async function planCopyWith(
  db: DataSource,
  copy: { schema: string; reader: PlanFactsReader },
  ...facts: Array<Omit<WorkspacePlanFacts, 'as_of'>>
): Promise<WorkspacePlans> {
  for (const one of facts) {
    await storePlanFacts(db.manager, copy.schema, { ...one, as_of: new Date().toISOString() });
  }
  return planCopyOf(db, copy);
}

/** For tests: a reader's copy of plan facts on `db` as it stands, read without waiting. */
export function planCopyOf(
  db: DataSource,
  copy: { schema: string; reader: PlanFactsReader },
): WorkspacePlans {
  return new WorkspacePlans(db, { ...copy, exchange: 'custodian.events.unused', waitMs: 0 });
}
