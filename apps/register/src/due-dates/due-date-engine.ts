import { PeriodicJob } from '@custodian/persistence';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { RegisterConfig } from '../config/register-config';
import {
  claimDue,
  markFired,
  markObsolete,
  recordFailure,
  type NoticeRow,
} from './due-notice.store';

/** Notices claimed (and kept locked) per transaction; a run goes on until fewer are due. */
const BATCH = 100;

/** A handler that throws is tried this many times in all, then the notice is given up. */
export const MAX_ATTEMPTS = 5;

/**
 * How long a notice waits after its `failures`-th failure: 1, 4, 16 then 64 minutes, so the
 * five attempts span about an hour and a half: long enough for a deadlock or an outage of
 * something a handler reads to pass, or for a bug to be noticed, without retrying every round.
 */
export function retryDelayMs(failures: number): number {
  return 60_000 * 4 ** Math.max(0, failures - 1);
}

/** A claimed notice, as its handler gets it. */
export interface DueNotice {
  id: string;
  workspaceId: string;
  subjectType: string;
  subjectId: string;
  kind: string;
  dueAt: Date;
  /** Failures before this attempt. */
  attempts: number;
}

/**
 * What a handler did with a notice:
 * - `fired`: it wrote what the date means (its event, its feed entry); the notice is marked
 *   fired in the same commit.
 * - `obsolete`: nothing is due any more (the record changed without cancelling the notice);
 *   the notice is cancelled and nothing was written.
 * - `busy`: the record is locked by a write in progress; the notice stays armed, no attempt is
 *   counted, and the next run tries it again (that write may cancel it first).
 */
export type DueOutcome = 'fired' | 'obsolete' | 'busy';

/**
 * Runs inside the transaction that claimed the notice: everything it writes commits together
 * with the notice marked fired, or not at all. It must not wait for a lock of the record: a
 * write of the record locks the record first and the notice second (when it cancels or
 * re-arms), and the engine holds the notice; so it locks with SKIP LOCKED (or NOWAIT) and
 * answers `busy` when it cannot. It may throw: its writes are rolled back (a savepoint) and
 * the notice is tried again later, up to MAX_ATTEMPTS.
 */
export type DueHandler = (tx: EntityManager, notice: DueNotice, now: Date) => Promise<DueOutcome>;

/** What one run did. `failed`: attempts that threw (given up or to be tried again). */
export interface DueRun {
  fired: number;
  obsolete: number;
  busy: number;
  failed: number;
}

const emptyRun = (): DueRun => ({ fired: 0, obsolete: 0, busy: 0, failed: 0 });

/**
 * The due-date engine (ADR 0020): fires each armed (subject, kind, date) of
 * register.due_notices once, when its date has passed, whichever replica runs it and however
 * often the register restarts, since the state is in Postgres, not in a timer. Every
 * DUE_DATES_SWEEP_MS (5 s), so a notice is at most that late.
 *
 * Domains arm and cancel notices with armNotice / cancelNotices (due-notice.store.ts) in their
 * own transactions, and register one handler per kind with `handle` at start (onModuleInit).
 * The engine claims only the kinds it has a handler for, so a replica of an older version
 * never takes (or spends the attempts of) a kind it does not know.
 *
 * `runDue(now)` takes the time it compares with: tests move a clock instead of waiting.
 */
@Injectable()
export class DueDateEngine
  extends PeriodicJob<DueRun>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly handlers = new Map<string, DueHandler>();
  private readonly logger = new Logger('DueDateEngine');

  constructor(
    private readonly db: DataSource,
    @Inject(RegisterConfig) config: Pick<RegisterConfig, 'DUE_DATES_SWEEP_MS'>,
  ) {
    const logger = new Logger('DueDateEngine');
    super(config.DUE_DATES_SWEEP_MS, (message) => logger.warn(message), emptyRun());
  }

  /** Registers the handler of `kind`; one per kind, so a second is a bug and throws. */
  handle(kind: string, handler: DueHandler): void {
    if (this.handlers.has(kind)) throw new Error(`A due-date handler for ${kind} exists already`);
    this.handlers.set(kind, handler);
  }

  /** Fires what is due at `now`, in batches, until fewer than a batch are due. */
  async runDue(now: Date = new Date()): Promise<DueRun> {
    const run = emptyRun();
    const kinds = [...this.handlers.keys()];
    if (kinds.length === 0) return run;
    // Busy notices stay armed and due: without this list a run would claim them again at once.
    const busy: string[] = [];
    for (;;) {
      const batch = emptyRun();
      const left: string[] = [];
      const claimed = await this.db.transaction(async (tx) => {
        const notices = await claimDue(tx, now, kinds, busy, BATCH);
        for (const row of notices) {
          const outcome = await this.attempt(tx, row, now);
          batch[outcome] += 1;
          if (outcome === 'busy') left.push(row.id);
        }
        return notices.length;
      });
      // Counted once the batch committed: a batch that rolled back fired nothing.
      for (const key of Object.keys(run) as Array<keyof DueRun>) run[key] += batch[key];
      busy.push(...left);
      if (claimed < BATCH) return run;
    }
  }

  protected work(): Promise<DueRun> {
    return this.runDue();
  }

  protected label(): string {
    return 'due-date run';
  }

  /**
   * One notice, under a savepoint: the handler's writes and the notice's new state commit with
   * the batch, and a handler that throws loses only its own writes, not the batch's.
   */
  private async attempt(
    tx: EntityManager,
    row: NoticeRow,
    now: Date,
  ): Promise<DueOutcome | 'failed'> {
    const notice = toNotice(row);
    await tx.query('SAVEPOINT due_notice');
    try {
      // Claimed only for kinds with a handler (claimDue's kinds), so there is one.
      const handler = this.handlers.get(notice.kind);
      if (!handler) throw new Error(`No due-date handler for ${notice.kind}`);
      const outcome = await handler(tx, notice, now);
      if (outcome === 'fired') await markFired(tx, notice.id, now);
      if (outcome === 'obsolete') await markObsolete(tx, notice.id, now);
      await tx.query('RELEASE SAVEPOINT due_notice');
      return outcome;
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT due_notice');
      await this.fail(tx, notice, now, error);
      return 'failed';
    }
  }

  private async fail(
    tx: EntityManager,
    notice: DueNotice,
    now: Date,
    error: unknown,
  ): Promise<void> {
    const failures = notice.attempts + 1;
    const giveUp = failures >= MAX_ATTEMPTS;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1_000);
    const retryAt = new Date(now.getTime() + retryDelayMs(failures));
    await recordFailure(tx, notice.id, { error: message, retryAt, giveUp, now });
    const what = `${notice.kind} of ${notice.subjectType} ${notice.subjectId} due ${notice.dueAt.toISOString()} (notice ${notice.id})`;
    if (giveUp) {
      this.logger.error(
        `${what} failed ${failures} times and is given up: ${message}. ` +
          'Fix the cause, then re-arm it (docs/operations.md, "A due-date notice given up")',
      );
    } else {
      this.logger.warn(
        `${what} failed (attempt ${failures} of ${MAX_ATTEMPTS}), tried again at ${retryAt.toISOString()}: ${message}`,
      );
    }
  }
}

function toNotice(row: NoticeRow): DueNotice {
  return {
    id: String(row.id),
    workspaceId: row.workspace_id,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    kind: row.kind,
    dueAt: row.due_at,
    attempts: row.attempts,
  };
}
