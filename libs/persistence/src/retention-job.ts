import { deleteInBatches, type Queryable } from './database';
import { PeriodicJob } from './periodic-job';

/** What a retention job deletes: the rows of `table` that match `where` (`$1`...). */
export interface RetentionRule {
  table: string;
  where: string;
  parameters: unknown[];
  /** The table's key column (`id` when absent). */
  key?: string;
}

/**
 * A table's retention, pruned every `everyMs` in batches (deleteInBatches), one run at a time;
 * a failed run is reported and left to the next one. The lifecycle methods are Nest's
 * (OnApplicationBootstrap, BeforeApplicationShutdown): an app's job subclasses this and is a
 * provider. Replicas pruning at the same time only find less to do.
 */
export abstract class RetentionJob extends PeriodicJob<number> {
  protected constructor(
    private readonly db: Queryable,
    everyMs: number,
    warn: (message: string) => void,
  ) {
    super(everyMs, warn, 0);
  }

  /** What to delete now (read at each run, so a rule relative to now() stays current). */
  protected abstract rule(): RetentionRule;

  /** Deletes what is past the retention; returns how many rows went (0 if the run failed). */
  prune(): Promise<number> {
    return this.runOnce();
  }

  protected work(): Promise<number> {
    return deleteRule(this.db, this.rule());
  }

  protected label(): string {
    return `pruning ${this.rule().table}`;
  }
}

/** Deletes what the rule matches, in batches; returns how many rows went. */
export function deleteRule(db: Queryable, rule: RetentionRule): Promise<number> {
  return deleteInBatches(db, rule.table, rule.where, rule.parameters, undefined, rule.key);
}
