import {
  deliveriesTotal,
  deliveryAttemptDuration,
  deliveryEndToEnd,
  statusClass,
} from '@custodian/observability';
import { isDatabaseUnavailable } from '@custodian/persistence';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryLeases,
  EndpointChange,
} from './delivery-leases';
import { classify, type AttemptResult, type Outcome } from './sender';

/** An attempt that has its answer and waits to be recorded. */
interface Answered {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  /** Failed recordings for another reason than Postgres being away. */
  failures: number;
}

/** Recording that fails for another reason than Postgres being away is given up after this. */
const RECORD_TRIES = 6;

/** The longest wait between two tries while Postgres is away. */
const MOST_BACKOFF_MS = 1_000;

/**
 * Records answered attempts in batches: all that wait, in one statement. With Postgres away, a
 * failed batch waits (backing off 200 ms, doubling, at most 1 s) and is tried again as a
 * batch, so a round costs one statement whatever waits.
 *
 * An attempt whose outcome this worker knows is never given up for Postgres being away
 * (isDatabaseUnavailable), however long: the worker keeps holding it (its own claims never take it again) and records it as
 * soon as Postgres answers, within a second. Giving up would leave it to its lease, and the
 * delivery would be sent a second time though its answer was in (seen after a 12 s outage).
 * Only an outage longer than the lease lets another worker claim it meanwhile (at-least-once),
 * and a worker stopped during an outage abandons what it could not record (`abandon`).
 * A batch Postgres refuses for its data is recorded row by row, so the row it refuses holds up
 * no other; that row is given up at once (trying it again cannot help).
 */
export class AttemptRecorder {
  private answered: Answered[] = [];
  /** Recording rounds that failed in a row; the next is not before retryAt (Date.now()). */
  private failuresInRow = 0;
  private nextTryAt = 0;

  /**
   * @param delays the waits (ms) before attempts 2, 3, ... of a chain; an attempt past them
   *   is the chain's last.
   * @param warn where a given-up attempt is reported.
   * @param changed what to tell of endpoints a recording disabled or enabled.
   */
  constructor(
    private readonly leases: Pick<DeliveryLeases, 'record'>,
    private readonly delays: number[],
    private readonly warn: (message: string) => void,
    private readonly changed: (changes: EndpointChange[]) => void = () => undefined,
  ) {}

  /** Attempts answered and not yet recorded. */
  get waiting(): number {
    return this.answered.length;
  }

  /** When (Date.now()) recording may be tried again after a failed round; 0 if not backing off. */
  get retryAt(): number {
    return this.nextTryAt;
  }

  /** An answer is in: counted in the metrics now, recorded with the next batch. */
  add(delivery: ClaimedDelivery, result: AttemptResult): void {
    this.answered.push({ delivery, result, failures: 0 });
    const outcome = this.outcomeOf(delivery, result);
    deliveriesTotal.inc({ outcome, status_class: statusClass(result.statusCode) });
    deliveryAttemptDuration.observe({ outcome }, result.durationMs / 1000);
    const createdAt = Date.parse(delivery.eventCreatedAt);
    if (outcome === 'delivered' && Number.isFinite(createdAt)) {
      deliveryEndToEnd.observe(Math.max(0, Date.now() - createdAt) / 1000);
    }
  }

  /** What an answer makes of the delivery: a retry past the chain's last attempt fails it. */
  private outcomeOf(delivery: ClaimedDelivery, result: AttemptResult): Outcome {
    const attempt = delivery.attempts + 1;
    const wait = this.delays[attempt - delivery.attemptsBeforeChain - 1];
    const outcome = classify(result);
    return outcome === 'retry' && wait === undefined ? 'failed' : outcome;
  }

  /**
   * Stops trying (shutting down with Postgres away): returns the deliveries let go, whose
   * leases will run out and which will be attempted again.
   */
  abandon(): string[] {
    const entries = this.answered;
    this.answered = [];
    const letGo: string[] = [];
    if (entries.length > 0) {
      this.giveUp(entries, new Error('the worker stopped while Postgres was away'), letGo);
    }
    return letGo;
  }

  /**
   * Records every answered attempt in one statement, unless the last rounds failed and their
   * backoff has not ended. Returns the deliveries this worker no longer holds: recorded, or
   * refused for their data (their leases run out).
   */
  async record(): Promise<string[]> {
    if (this.answered.length === 0 || Date.now() < this.nextTryAt) return [];
    const batch = this.answered;
    this.answered = [];
    const letGo: string[] = [];
    await this.recordBatch(batch, letGo);
    return letGo;
  }

  private async recordBatch(batch: Answered[], letGo: string[]): Promise<void> {
    try {
      this.changed(await this.leases.record(batch.map((entry) => this.toRecord(entry))));
      this.recorded(batch, letGo);
      return;
    } catch (error) {
      if (!refusedForData(error)) return this.failed(batch, error, letGo);
      if (batch.length === 1) return this.giveUp(batch, error, letGo);
    }
    for (const [i, entry] of batch.entries()) {
      try {
        this.changed(await this.leases.record([this.toRecord(entry)]));
        this.recorded([entry], letGo);
      } catch (error) {
        if (!refusedForData(error)) return this.failed(batch.slice(i), error, letGo);
        this.giveUp([entry], error, letGo);
      }
    }
  }

  /**
   * The attempt as recorded: its number, and what the delivery becomes. Retries are counted
   * in the delivery's current chain (a resend starts a new one), numbers over its whole life.
   */
  private toRecord({ delivery, result }: Answered): AttemptRecord {
    const attempt = delivery.attempts + 1;
    // The wait before the chain's next attempt; none after its last.
    const wait = this.delays[attempt - delivery.attemptsBeforeChain - 1];
    const outcome = this.outcomeOf(delivery, result);
    return {
      deliveryId: delivery.id,
      lease: delivery.lease,
      attempt,
      chain: delivery.chain,
      status: outcome === 'retry' ? 'pending' : outcome,
      waitMs: outcome === 'retry' ? (wait ?? 0) : 0,
      result,
    };
  }

  private recorded(entries: Answered[], letGo: string[]): void {
    for (const { delivery } of entries) letGo.push(delivery.id);
    this.failuresInRow = 0;
    this.nextTryAt = 0;
  }

  /**
   * The batch failed as a whole: it waits for the next try, all together. Postgres being away
   * is waited out however long; any other failure (a deploy that broke the statement, a
   * permission) is given up after RECORD_TRIES, or the worker would hold every slot's
   * delivery forever and claim nothing.
   */
  private failed(entries: Answered[], error: unknown, letGo: string[]): void {
    this.failuresInRow++;
    this.nextTryAt = Date.now() + Math.min(200 * 2 ** (this.failuresInRow - 1), MOST_BACKOFF_MS);
    const away = isDatabaseUnavailable(error);
    const givenUp: Answered[] = [];
    for (const entry of entries) {
      if (!away) entry.failures++;
      if (entry.failures >= RECORD_TRIES) givenUp.push(entry);
      else this.answered.push(entry);
    }
    if (givenUp.length > 0) this.giveUp(givenUp, error, letGo);
  }

  /** Leaves the attempts unrecorded: their leases run out and they are attempted again. */
  private giveUp(entries: Answered[], error: unknown, letGo: string[]): void {
    for (const { delivery } of entries) letGo.push(delivery.id);
    const [first] = entries;
    const more = entries.length > 1 ? ` and ${entries.length - 1} more` : '';
    this.warn(`attempt of ${first?.delivery.id}${more} not recorded: ${(error as Error).message}`);
  }
}

/**
 * Postgres refused the values themselves (SQLSTATE class 22, data exception) or a constraint
 * (class 23): trying the same rows again cannot help, though the other rows of their batch may
 * go in on their own. Anything else (connection lost, timeout) is tried again as a whole.
 */
function refusedForData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}
