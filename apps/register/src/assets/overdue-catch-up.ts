import { PeriodicJob } from '@custodian/persistence';
import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dueCheckouts, type DueCheckoutRow } from './asset.store';
import { armOverdue } from './assignment-overdue';

const EVERY_MS = 60_000;
const BATCH = 500;

/**
 * Transitional, for the release that moved assignment.overdue onto the due-date engine (ADR
 * 0020); it goes, with assets.overdue_at, in the release after. While the new version rolls
 * out, registers of the previous one still take writes, and a due date they set arms no
 * notice. Every minute this arms one for each check-out past its due date that is not marked
 * overdue; the engine fires it in its next run (a minute late at most). armNotice leaves a
 * notice already armed, fired or given up as it is, so for the check-outs the new version
 * wrote this changes nothing, and costs only the check-outs due and not yet fired (the partial
 * index assets_custody_due).
 */
@Injectable()
export class OverdueCatchUp
  extends PeriodicJob<number>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(private readonly db: DataSource) {
    const logger = new Logger('OverdueCatchUp');
    super(EVERY_MS, (message) => logger.warn(message), 0);
  }

  /** Arms what is due at `now` and has no notice; answers how many check-outs it looked at. */
  async catchUp(now: Date = new Date()): Promise<number> {
    let seen = 0;
    // Page on: a check-out whose notice stays armed (busy, failing) or gave up is still due and
    // not overdue, and would otherwise be read again by every batch.
    let after: DueCheckoutRow | null = null;
    for (;;) {
      const rows = await this.db.transaction(async (tx) => {
        const batch = await dueCheckouts(tx, now, BATCH, after);
        for (const row of batch) {
          await armOverdue(tx, row.workspace_id, row.id, row.custody_due_at);
        }
        return batch;
      });
      seen += rows.length;
      if (rows.length < BATCH) return seen;
      after = rows[rows.length - 1] ?? null;
    }
  }

  protected work(): Promise<number> {
    return this.catchUp();
  }

  protected label(): string {
    return 'overdue catch-up';
  }
}
