import { DomainError } from '@custodian/contracts';
import { untracedAround } from '@custodian/observability';
import { queryRows, retryTransaction } from '@custodian/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { currentRpcRequest, type RpcRequestContext } from '../rpc-request-context';

/** How long a request's reply is kept for a client's Idempotency-Key (Stripe's: 24 h). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/**
 * How long a request without a key is remembered: only its own redeliveries can repeat it,
 * and those are dropped once its deadline (seconds) has passed.
 */
export const REDELIVERY_WINDOW_MS = 10 * 60_000;
/**
 * A write commits only if this much is left before the caller's deadline: room for the
 * commit and the reply to reach the caller before it gives up and answers 504. The default of
 * REGISTER_DEADLINE_MARGIN_MS.
 */
export const COMMIT_MARGIN_MS = 100;

/** Postgres cancelled a statement for statement_timeout, or a lock wait for lock_timeout. */
const TIMED_OUT = new Set(['57014', '55P03']);

/** Thrown out of the transaction when the request's own row stayed locked past the deadline. */
class TwinStillRunning extends Error {}

interface Applied {
  fingerprint: string | null;
  reply: unknown;
}

/**
 * A write served over RPC, applied at most once per request: every write of the register's
 * API queue (and invitation accepts), and the webhook-worker's console writes (endpoint
 * create, change, delete, secret rotation). Each app has its own `<schema>.applied_requests`
 * table (applied-requests.table.ts). (The admin queues' CLI writes do not: the CLI does not
 * retry.)
 *
 * The RPC request's id (rpc-request-context.ts) is inserted into `<schema>.applied_requests` as
 * the transaction's first statement and its reply stored as its last, so the record of a
 * request commits with its effects or not at all. The same request handed over again (the
 * broker redelivers a request whose channel died mid-handler; a client retries with its
 * Idempotency-Key) finds that row and gets the stored reply: nothing is written twice and no
 * event fires twice. A twin running at the same moment waits on the row's lock and then
 * replays. A request that was refused (rolled back) left no row: its retry runs afresh.
 *
 * Its SQL is bound to the caller's deadline: statement_timeout and lock_timeout are what is
 * left of it (less a margin for the commit and the reply), and a write that ends later is
 * rolled back rather than committed after the caller gave up; the caller hears so in time
 * (`overloaded`, 503: nothing was written, retry). A 504 can still follow a commit
 * (a reply lost with the broker, a commit slower than the margin, clocks apart): a client that
 * must know retries with its Idempotency-Key.
 */
export class AppliedWrites {
  private readonly table: string;

  constructor(
    private readonly db: DataSource,
    /** The app's schema: `register`, `delivery`. */
    schema: string,
    private readonly marginMs = COMMIT_MARGIN_MS,
    /** Who the caller hears could not finish in time (`The register`). */
    private readonly serviceName = 'The service',
  ) {
    this.table = `${schema}.applied_requests`;
  }

  /** A write whose reply is what it returns. */
  async run<T>(workspaceId: string, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return (await this.apply(workspaceId, work, (result) => result)).reply;
  }

  /**
   * A write whose stored reply is `reply(result)`: what must not be kept (an invitation's raw
   * token) stays out of it. `result` is there only when the write was applied now, not when a
   * stored reply answers a repeat: what follows a commit (an e-mail) follows it once.
   *
   * `request` is the RPC request being served unless given: the gateway gives its own for a
   * console write it applies itself (an API key created with an Idempotency-Key).
   */
  async apply<T, R>(
    workspaceId: string,
    work: (tx: EntityManager) => Promise<T>,
    reply: (result: T) => R,
    request: RpcRequestContext | undefined = currentRpcRequest(),
  ): Promise<{ reply: R; result?: T }> {
    // Called directly (tests, scripts): a plain transaction.
    if (!request) {
      const result = await retryTransaction(() => this.db.transaction(work));
      return { reply: reply(result), result };
    }
    const earlier = await this.earlier(request, workspaceId);
    if (earlier) return { reply: replay<R>(earlier, request) };
    try {
      // START TRANSACTION, the deadline's settings and COMMIT make no SQL spans of their own
      // (the RPC span around them shows their time); every other statement does.
      return await retryTransaction(() =>
        untracedAround((traced) =>
          this.db.transaction(async (tx) => {
            await this.boundByDeadline(tx, request.deadline);
            return traced(async (): Promise<{ reply: R; result?: T }> => {
              if (!(await this.claim(tx, workspaceId, request))) {
                // A twin committed while this one waited for the row: answer as it did.
                const twin = await this.applied(tx, request.id, workspaceId);
                if (!twin) throw new Error(`applied request ${request.id} vanished`);
                return { reply: replay<R>(twin, request) };
              }
              const result = await work(tx);
              const stored = reply(result);
              await tx.query(`UPDATE ${this.table} SET reply = $2 WHERE id = $1`, [
                request.id,
                JSON.stringify(stored ?? null),
              ]);
              if (request.deadline !== undefined && Date.now() > request.deadline - this.marginMs) {
                throw this.tooLate();
              }
              return { reply: stored, result };
            });
          }),
        ),
      );
    } catch (error) {
      if (error instanceof TwinStillRunning) {
        throw new DomainError(
          'timeout',
          'This request (or one with the same Idempotency-Key) is still being processed; ' +
            'retry with the same Idempotency-Key to get its answer',
        );
      }
      const code = (error as { driverError?: { code?: string } }).driverError?.code;
      if (code !== undefined && TIMED_OUT.has(code)) throw this.tooLate();
      throw error;
    }
  }

  /**
   * Inserts the request's row; false if a live one exists (a twin's, committed now). A row
   * whose window has passed is taken over: the key starts afresh.
   */
  private async claim(
    tx: EntityManager,
    workspaceId: string,
    request: RpcRequestContext,
  ): Promise<boolean> {
    const window = request.fingerprint === undefined ? REDELIVERY_WINDOW_MS : IDEMPOTENCY_WINDOW_MS;
    const rows = await this.insertRow(
      tx,
      `INSERT INTO ${this.table} (id, workspace_id, fingerprint, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE
         SET workspace_id = EXCLUDED.workspace_id, fingerprint = EXCLUDED.fingerprint,
             reply = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE applied_requests.expires_at <= now()
       RETURNING id`,
      [request.id, workspaceId, request.fingerprint ?? null, window],
    );
    return rows.length === 1;
  }

  /** The claim's insert: its lock wait running out means a twin holds the row (still running). */
  private async insertRow(tx: EntityManager, sql: string, parameters: unknown[]) {
    try {
      return await queryRows(tx, sql, parameters);
    } catch (error) {
      const code = (error as { driverError?: { code?: string } }).driverError?.code;
      if (code === '55P03' || code === '57014') throw new TwinStillRunning();
      throw error;
    }
  }

  /**
   * The live record of the request, under its id or, for a key sent before keys were scoped
   * to their sender, under the id the version before derived (RpcRequestContext.formerId).
   */
  private async earlier(request: RpcRequestContext, workspaceId: string): Promise<Applied | null> {
    const current = await this.applied(this.db.manager, request.id, workspaceId);
    if (current || request.formerId === undefined) return current;
    return this.applied(this.db.manager, request.formerId, workspaceId);
  }

  /** The live record of the request; of this workspace only (ids include it, but still). */
  private async applied(
    db: EntityManager,
    id: string,
    workspaceId: string,
  ): Promise<Applied | null> {
    const [row] = await queryRows<Applied>(
      db,
      `SELECT fingerprint, reply FROM ${this.table}
       WHERE id = $1 AND workspace_id = $2 AND expires_at > now()`,
      [id, workspaceId],
    );
    return row ?? null;
  }

  /** Binds the transaction's statements and lock waits to what is left of the deadline. */
  private async boundByDeadline(tx: EntityManager, deadline: number | undefined): Promise<void> {
    if (deadline === undefined) return;
    const left = Math.floor(deadline - Date.now() - this.marginMs);
    if (left <= 0) throw this.tooLate();
    await tx.query(
      `SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $1, true)`,
      [`${left}ms`],
    );
  }

  /**
   * The transaction rolled back (or never began) before its deadline, and the caller is told
   * so in time: a 503 it may retry, not a 504 whose outcome it cannot know.
   */
  private tooLate(): DomainError {
    return new DomainError(
      'overloaded',
      `${this.serviceName} could not finish the write within the request deadline; nothing was written`,
    );
  }
}

/** The stored reply, unless the key came with another request. */
function replay<T>(applied: Applied, request: RpcRequestContext): T {
  if ((applied.fingerprint ?? undefined) !== request.fingerprint) {
    throw new DomainError(
      'unprocessable',
      'Idempotency-Key was already used with a different request (method, path or body); ' +
        'use a new key for a new request',
    );
  }
  return applied.reply as T;
}
