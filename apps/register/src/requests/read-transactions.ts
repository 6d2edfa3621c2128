import { DomainError } from '@custodian/contracts';
import { currentRpcRequest } from '@custodian/messaging';
import type { Queryable } from '@custodian/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { Admission, AdmissionRefused } from './admission';

export interface ReadLimits {
  /** Heavy reads running at once (heavyReadLimit). */
  heavyConcurrency: number;
  /** Heavy reads that may wait for a turn at most (while their turn can come in time). */
  heavyLine?: number;
  /** Kept back from the deadline for the reply (REGISTER_DEADLINE_MARGIN_MS). */
  marginMs: number;
  /**
   * The statement_timeout every connection of the pool has already
   * (DATABASE_STATEMENT_TIMEOUT_MS); none if unset.
   */
  poolStatementTimeoutMs?: number;
}

/** For code that builds this by hand (tests, scripts): the limits of a pool of 10. */
export const DEFAULT_READ_LIMITS: ReadLimits = { heavyConcurrency: 5, marginMs: 100 };

/** The pg client under a TypeORM query runner (`connect()` returns it). */
interface PgClient {
  query(sql: string): Promise<unknown>;
}

/** Postgres cancelled a statement for statement_timeout, or a lock wait for lock_timeout. */
const CANCELLED = new Set(['57014', '55P03']);

/**
 * Every read of the register's API queue runs here, bound to its request's deadline: in a
 * read-only transaction whose statement_timeout and lock_timeout are what is left of the
 * deadline less the margin, so a query nobody waits for any more is cancelled in Postgres
 * rather than left running, holding a connection, while new ones pile up behind it. A read
 * whose deadline passed while it waited for a connection is not started. Either way the
 * caller hears `overloaded` (503, retry shortly), which is true: a read changed nothing.
 *
 * Heavy reads (lists and searches, whose cost grows with the workspace) also go through an
 * admission of their own: `heavyConcurrency` at once; others wait for a turn while, at the
 * pace lists have run lately, it can come within half of their time; the rest are refused at
 * once. They cannot take every connection, so fetches by id and writes keep being served
 * beside them; the gateway sends them on a lane of their own (heavyLaneOf), so they never
 * stand ahead of a fetch in the queue either (ADR 0015).
 *
 * Code called without an RPC request (tests, scripts) runs on the pool as it is.
 */
export class ReadTransactions {
  private readonly heavyAdmission: Admission;

  constructor(
    private readonly db: DataSource,
    private readonly limits: ReadLimits = DEFAULT_READ_LIMITS,
  ) {
    this.heavyAdmission = new Admission({
      concurrency: limits.heavyConcurrency,
      line: limits.heavyLine ?? limits.heavyConcurrency,
    });
  }

  /**
   * A cheap read (a record by id, the members): bound to the deadline, never refused for load.
   * Its statements are already bounded by the pool's own statement_timeout: while at least
   * that much of the deadline is left (a request taken at once, as usual) they run as they
   * are, which spares a fetch the transaction's three statements (about 13% of its CPU, ADR
   * 0015); a read that waited longer gets the transaction and the exact bound.
   */
  run<T>(work: (db: EntityManager) => Promise<T>): Promise<T> {
    const deadline = currentRpcRequest()?.deadline;
    if (deadline === undefined) return work(this.db.manager);
    return this.bounded(deadline, work, true);
  }

  /**
   * A heavy read (a list, a search): admitted as above, then bound to the deadline. Its
   * statements share one connection: those it sends at once (a page and its count) run one
   * after the other.
   */
  async heavy<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    const deadline = currentRpcRequest()?.deadline;
    if (deadline === undefined) return work(this.db.manager);
    const left = deadline - this.limits.marginMs - Date.now();
    if (left <= 0) throw notStarted();
    try {
      // Waiting for a turn may use half of what is left, so the query keeps the other half:
      // a turn that comes later would start a query with too little time to finish.
      return await this.heavyAdmission.run(Date.now() + left / 2, () =>
        this.bounded(deadline, (tx) => work(oneAtATime(tx))),
      );
    } catch (error) {
      if (error instanceof AdmissionRefused) throw busy();
      throw error;
    }
  }

  /** How many heavy reads run and wait now, and how long one has run lately (ms). */
  heavyLoad(): { running: number; waiting: number; typicalRunMs: number | null } {
    return {
      running: this.heavyAdmission.running,
      waiting: this.heavyAdmission.waiting,
      typicalRunMs: this.heavyAdmission.typicalRun,
    };
  }

  private async bounded<T>(
    deadline: number,
    work: (db: EntityManager) => Promise<T>,
    poolBoundWillDo = false,
  ): Promise<T> {
    const runner = this.db.createQueryRunner();
    try {
      // Waits for a pool connection: the deadline may pass meanwhile.
      const client = (await runner.connect()) as PgClient;
      const left = Math.floor(deadline - this.limits.marginMs - Date.now());
      if (left <= 0) throw notStarted();
      const poolBound = this.limits.poolStatementTimeoutMs;
      if (poolBoundWillDo && poolBound !== undefined && left >= poolBound) {
        return await work(runner.manager);
      }
      // One round trip: the timeouts are our own integers, so the simple protocol's multiple
      // statements are safe, and SET LOCAL ends with the transaction, whatever happens. The
      // transaction's own statements go to pg directly: TypeORM's wrapping of each query costs
      // as much CPU as the statement, and a fetch by id is little more than these.
      // REPEATABLE READ: one snapshot for all its statements, so a list's version, page and
      // total agree (readList). Read-only, it costs nothing more and never fails to serialise.
      await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${left}; SET LOCAL lock_timeout = ${left}`,
      );
      let result: T;
      try {
        result = await work(runner.manager);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (CANCELLED.has(pgCode(error) ?? '')) throw tooLate();
      throw error;
    } finally {
      await runner.release();
    }
  }
}

/**
 * Statements sent together on one connection, queued here rather than inside pg, which
 * deprecates a second query on a client still busy with one.
 */
function oneAtATime(tx: EntityManager): Queryable {
  let previous: Promise<unknown> = Promise.resolve();
  return {
    query<R>(sql: string, parameters?: unknown[]): Promise<R> {
      const next = previous.then(() => tx.query<R>(sql, parameters));
      previous = next.catch(() => undefined);
      return next;
    },
  };
}

function pgCode(error: unknown): string | undefined {
  const failed = error as { driverError?: { code?: string }; code?: string } | null;
  return failed?.driverError?.code ?? failed?.code;
}

function busy(): DomainError {
  return new DomainError(
    'overloaded',
    'The register is running as many lists and searches as it can; try again shortly',
  );
}

function tooLate(): DomainError {
  return new DomainError(
    'overloaded',
    'The register could not finish this read within the request deadline; try again shortly',
  );
}

function notStarted(): DomainError {
  return new DomainError(
    'overloaded',
    'The register could not start this read before the request deadline; try again shortly',
  );
}
