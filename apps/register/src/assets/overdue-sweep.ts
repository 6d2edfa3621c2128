import { OutboxWriter } from '@custodian/messaging';
import { SYSTEM_ACTOR } from '@custodian/contracts';
import { ActivityLog, PeriodicJob } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RegisterConfig } from '../config/register-config';
import { claimOverdue, overdueRows, toDetail } from './asset.store';

/** Check-outs fired per transaction; a sweep goes on until fewer are due. */
const BATCH = 500;

/**
 * Fires `assignment.overdue` for every check-out whose due date has passed while the asset is
 * still out: once per due date (its `overdue_at` is set in the transaction that writes the
 * event to the outbox), whichever replica sweeps and however often the register restarts, since
 * the state is in Postgres, not in a timer. Replicas claim rows with SKIP LOCKED, so they share
 * the work rather than wait on each other; a PATCH holding the asset (a check-in) is skipped
 * and seen again on the next sweep if it is still due. Every OVERDUE_SWEEP_MS (5 s), so an
 * event is at most that late.
 *
 * `sweep(now)` takes the time it compares with, so tests move a clock instead of waiting.
 */
@Injectable()
export class OverdueSweep
  extends PeriodicJob<number>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxWriter,
    private readonly activity: ActivityLog,
    @Inject(RegisterConfig) config: Pick<RegisterConfig, 'OVERDUE_SWEEP_MS'>,
  ) {
    const logger = new Logger('OverdueSweep');
    super(config.OVERDUE_SWEEP_MS, (message) => logger.warn(message), 0);
  }

  /** Fires what is due at `now`; returns how many check-outs it fired for. */
  async sweep(now: Date = new Date()): Promise<number> {
    let fired = 0;
    for (;;) {
      const batch = await this.db.transaction((tx) => this.fireBatch(tx, now));
      fired += batch;
      if (batch < BATCH) return fired;
    }
  }

  protected work(): Promise<number> {
    return this.sweep();
  }

  protected label(): string {
    return 'overdue sweep';
  }

  private async fireBatch(tx: EntityManager, now: Date): Promise<number> {
    const claimed = await claimOverdue(tx, now, BATCH);
    if (claimed.length === 0) return 0;
    const rows = await overdueRows(
      tx,
      claimed.map((row) => row.id),
    );
    for (const row of rows) {
      const asset = toDetail(row);
      if (!asset.custody || row.custody_due_at === null) continue;
      await this.outbox.write(tx, row.workspace_id, 'assignment.overdue', {
        asset,
        person: asset.custody.person,
        since: asset.custody.since,
        due_at: row.custody_due_at.toISOString(),
      });
      await this.activity.record(tx, row.workspace_id, {
        source: 'system',
        actor: SYSTEM_ACTOR,
        recordType: 'asset',
        recordId: asset.id,
        recordName: asset.name,
        action: 'overdue',
        relatedId: asset.custody.person.id,
        relatedName: asset.custody.person.name,
        changes: [{ field: 'due_at', from: null, to: row.custody_due_at.toISOString() }],
      });
    }
    return claimed.length;
  }
}
