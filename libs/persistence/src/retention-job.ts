import { deleteInBatches, type Queryable } from './database';

/** What a retention job deletes: the rows of `table` that match `where` (`$1`...). */
export interface RetentionRule {
  table: string;
  where: string;
  parameters: unknown[];
}

/**
 * A table's retention, pruned every `everyMs` in batches (deleteInBatches), one run at a time;
 * a failed run is reported and left to the next one. The lifecycle methods are Nest's
 * (OnApplicationBootstrap, BeforeApplicationShutdown): an app's job subclasses this and is a
 * provider. Replicas pruning at the same time only find less to do.
 */
export abstract class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  protected constructor(
    private readonly db: Queryable,
    private readonly everyMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** What to delete now (read at each run, so a rule relative to now() stays current). */
  protected abstract rule(): RetentionRule;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), this.everyMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Deletes what is past the retention; returns how many rows went (0 if the run failed). */
  prune(): Promise<number> {
    const { table, where, parameters } = this.rule();
    this.running ??= deleteInBatches(this.db, table, where, parameters)
      .catch((error: Error) => {
        this.warn(`pruning ${table} deferred: ${error.message}`);
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }
}
