import { delay } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig, retryDelays } from '../config/worker-config';
import { WebhookSender, classify, type AttemptResult } from './sender';

interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string;
  secret: string;
  /**
   * Our lease, as Postgres wrote it (as text, which keeps its microseconds): a release clears
   * the row's lease only while it is still this one.
   */
  lease: string;
}

/** A claimed delivery and when (performance.now()) its claim was sent: its lease is younger. */
interface Leased {
  delivery: ClaimedDelivery;
  claimedAt: number;
}

/** An endpoint's attempts in flight and its claimed deliveries waiting for a slot. */
interface EndpointWork {
  inFlight: number;
  ready: Leased[];
}

/** An attempt that has its answer and waits to be recorded. */
interface Finished {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  /** Failed recordings so far; given up after RECORD_TRIES (the lease then runs out). */
  failures: number;
}

/** A lease to give back: the row's, if it is still ours. */
interface Release {
  id: string;
  lease: string;
}

/** Recording an attempt is tried this many times before its lease is left to run out. */
const RECORD_TRIES = 6;

/**
 * Sends due deliveries. Claims take a lease (FOR UPDATE SKIP LOCKED, so replicas share the
 * table) and commit at once: no transaction is held over HTTP. A worker that dies mid-attempt
 * leaves a lease that runs out, and the delivery is claimed again. Concurrency is bounded in
 * all (DELIVERY_CONCURRENCY) and per endpoint (DELIVERY_PER_ENDPOINT), so one slow receiver
 * cannot take every slot.
 *
 * Per endpoint, up to DELIVERY_PREFETCH due deliveries beyond its free slots are leased ahead
 * and wait here, so a slot that frees starts the next attempt at once instead of waiting for a
 * round trip to Postgres. Free slots go to the endpoints with work waiting in turn (the one
 * served goes to the back of the line), so busy endpoints cannot keep another's deliveries
 * waiting. One that waited so long that its attempt (and its recording) could outlive its lease
 * is not started but given back: every round looks for them, whether a slot frees or not.
 * A lease is only ever given back while it is still ours (the release names the lease it
 * clears), and a claim never takes a delivery this worker still holds, so one worker cannot
 * send the same delivery twice.
 *
 * One loop does the database work: each round records every attempt answered since the last
 * one in one statement and, side by side, claims for the room there is; it goes round again
 * while attempts keep finishing. Attempts that finish together are recorded together, and a
 * slot is free as soon as its answer is in (the lease keeps the delivery from being claimed
 * again until it is recorded).
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly sender: WebhookSender;
  private readonly delays: number[];
  /** Endpoints with work here, in the order they are offered free slots. */
  private readonly endpoints = new Map<string, EndpointWork>();
  /** Deliveries this worker holds a lease on: in flight, waiting, answered, being recorded. */
  private readonly held = new Set<string>();
  /**
   * A waiting delivery starts only within this long (ms) of its claim: its attempt
   * (DELIVERY_TIMEOUT_MS at most) and its recording (a margin) must end before its lease does.
   */
  private readonly startWithin: number;
  /** HTTP attempts in flight. */
  private readonly sending = new Set<Promise<void>>();
  /** Claimed deliveries waiting for a slot, in all endpoints. */
  private ready = 0;
  /** Attempts answered and not yet recorded. */
  private finished: Finished[] = [];
  /** Leases to give back (waited too long, or shutting down). */
  private releasing: Release[] = [];
  /** Recording rounds that failed in a row (Postgres away); the next is not before recordAt. */
  private recordFailures = 0;
  private recordAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  /** Another round is wanted; and whether it is to claim (not only to record). */
  private wanted = false;
  private claimWanted = false;
  /**
   * The last claim may have left due deliveries behind (an endpoint got all the room it had,
   * or some had none): a slot that frees asks again. Otherwise it need not until fan-out
   * stores more or the next interval comes.
   */
  private moreDue = true;
  private lastWarning = 0;

  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    this.sender = new WebhookSender(config.DELIVERY_TIMEOUT_MS, {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    });
    this.delays = retryDelays(config);
    const lease = config.DELIVERY_LEASE_MS;
    const margin = Math.min(lease / 10, (lease - config.DELIVERY_TIMEOUT_MS) / 2);
    this.startWithin = lease - config.DELIVERY_TIMEOUT_MS - margin;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.DELIVERY_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Before the DataSource closes (DatabaseModule closes it in onApplicationShutdown, which Nest
   * calls after every beforeApplicationShutdown): the attempts in flight must be recorded.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pumping;
    // What waits for a slot is given back at once rather than left to its lease.
    for (const work of this.endpoints.values()) {
      for (const { delivery } of work.ready) this.giveBack(delivery);
      this.ready -= work.ready.length;
      work.ready = [];
    }
    // Attempts in flight finish (bounded by the attempt timeout) and are recorded, including
    // recordings that are backing off after a failure (bounded by RECORD_TRIES).
    await this.tick();
    await Promise.allSettled([...this.sending]);
    await this.tick();
    while (this.finished.length > 0) {
      await delay(Math.max(0, this.recordAt - Date.now()));
      await this.tick();
    }
    await this.sender.close();
  }

  /**
   * Records what has finished and claims what is due, round after round while there is
   * more; one loop at a time (a call while it runs asks it for one more round). Fan-out calls
   * it when it has stored deliveries, so they need not wait for the next interval.
   */
  tick(claim = true): Promise<void> {
    this.wanted = true;
    this.claimWanted ||= claim;
    this.pumping ??= this.pump().finally(() => (this.pumping = null));
    return this.pumping;
  }

  private async pump(): Promise<void> {
    while (this.wanted) {
      this.wanted = false;
      this.giveBackStale();
      const claim = this.claimWanted && this.timer !== null;
      this.claimWanted = false;
      // Recording and claiming are independent (a claim never takes a leased row, and slots
      // free up when the answer is in, not when it is recorded): one round trip for both.
      const outcomes = await Promise.allSettled([
        this.recordFinished(),
        this.releaseLeases(),
        claim ? this.claim() : undefined,
      ]);
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) {
        // Postgres is away: the next interval tries again.
        this.warn(`delivery scheduler paused: ${(failed.reason as Error).message}`);
        return;
      }
    }
  }

  private async claim(): Promise<void> {
    const c = this.config;
    // `held`: attempts in flight, waiting for a slot, or not yet recorded. In flight is bounded
    // by DELIVERY_CONCURRENCY when attempts start; what waits for a slot, in all, by
    // DELIVERY_CONCURRENCY again.
    const free = c.DELIVERY_CONCURRENCY * (c.DELIVERY_PREFETCH > 0 ? 2 : 1) - this.held.size;
    if (free <= 0) {
      this.moreDue = true;
      return;
    }
    const most = c.DELIVERY_PER_ENDPOINT + c.DELIVERY_PREFETCH;
    const busy: Array<[string, number]> = [];
    const full: string[] = [];
    for (const [id, work] of this.endpoints) {
      const taken = work.inFlight + work.ready.length;
      if (taken >= most) full.push(id);
      else busy.push([id, taken]);
    }
    // Per endpoint, at most the room its cap and prefetch leave (ranked among a bounded set
    // of due candidates); endpoints without room are left out, and so are the deliveries this
    // worker holds (a lease of ours that ran out must not give us a second copy). Candidates
    // are read without locks; only the chosen rows are locked (SKIP LOCKED, and rechecked: one
    // another worker leased or rescheduled since our snapshot no longer qualifies), so a claim
    // writes no more than it takes. The lease comes back as text: a JS Date would lose its
    // microseconds, and releases match it exactly.
    // TypeORM returns [rows, count] for UPDATE ... RETURNING.
    const claimedAt = performance.now();
    const [claimed] = await this.db.query<[ClaimedDelivery[], number]>(
      `WITH busy AS (
         SELECT * FROM unnest($3::text[], $4::int[]) AS b (endpoint_id, taken)),
       candidates AS (
         SELECT id, endpoint_id, next_attempt_at FROM delivery.deliveries
         WHERE status = 'pending' AND next_attempt_at <= now()
           AND (lease_until IS NULL OR lease_until < now())
           AND endpoint_id <> ALL ($7::text[])
           AND id <> ALL ($8::text[])
         ORDER BY next_attempt_at
         LIMIT $5),
       ranked AS (
         SELECT c.id, c.next_attempt_at,
           row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at) AS n,
           $6 - coalesce(b.taken, 0) AS room
         FROM candidates c LEFT JOIN busy b USING (endpoint_id)),
       chosen AS (
         SELECT id FROM ranked WHERE n <= room ORDER BY next_attempt_at LIMIT $1),
       locked AS (
         SELECT d.id FROM delivery.deliveries d
         WHERE d.id = ANY (ARRAY (SELECT id FROM chosen))
           AND d.status = 'pending' AND d.next_attempt_at <= now()
           AND (d.lease_until IS NULL OR d.lease_until < now())
         FOR UPDATE OF d SKIP LOCKED)
       UPDATE delivery.deliveries d
       SET lease_until = now() + $2 * interval '1 millisecond'
       FROM delivery.endpoints e
       WHERE d.id = ANY (ARRAY (SELECT id FROM locked)) AND e.id = d.endpoint_id
       RETURNING d.id, d.endpoint_id, d.event, d.payload, d.attempts, e.url, e.secret,
         d.lease_until::text AS lease`,
      [
        free,
        c.DELIVERY_LEASE_MS,
        busy.map(([id]) => id),
        busy.map(([, taken]) => taken),
        Math.max(free * 5, 500),
        most,
        full,
        [...this.held],
      ],
    );
    const taken = new Map(busy);
    const got = new Map<string, number>();
    for (const delivery of claimed) {
      got.set(delivery.endpoint_id, (got.get(delivery.endpoint_id) ?? 0) + 1);
    }
    this.moreDue =
      full.length > 0 ||
      claimed.length >= free ||
      [...got].some(([id, n]) => n >= most - (taken.get(id) ?? 0));
    for (const delivery of claimed) {
      const work = this.work(delivery.endpoint_id);
      work.ready.push({ delivery, claimedAt });
      this.ready++;
      this.held.add(delivery.id);
    }
    this.startReady();
  }

  private work(endpointId: string): EndpointWork {
    let work = this.endpoints.get(endpointId);
    if (!work) {
      work = { inFlight: 0, ready: [] };
      this.endpoints.set(endpointId, work);
    }
    return work;
  }

  /**
   * Starts what waits, as far as the per-endpoint and global caps allow. Endpoints are offered
   * slots in turn: one that got any goes to the back of the line, so while the global cap is
   * full each slot that frees goes to the endpoint that waited longest for one.
   */
  private startReady(): void {
    if (this.ready === 0) return;
    // Only the endpoints there were when it began (those moved to the back are not offered
    // twice).
    let offers = this.endpoints.size;
    for (const [id, work] of this.endpoints) {
      if (offers-- === 0 || this.sending.size >= this.config.DELIVERY_CONCURRENCY) return;
      const started = this.startFor(work);
      if (work.inFlight === 0 && work.ready.length === 0) {
        this.endpoints.delete(id);
      } else if (started > 0) {
        this.endpoints.delete(id);
        this.endpoints.set(id, work);
      }
    }
  }

  /** Starts what waits for one endpoint, as far as the caps allow; returns how many. */
  private startFor(work: EndpointWork): number {
    const c = this.config;
    const claimedSince = performance.now() - this.startWithin;
    let started = 0;
    while (
      work.ready.length > 0 &&
      work.inFlight < c.DELIVERY_PER_ENDPOINT &&
      this.sending.size < c.DELIVERY_CONCURRENCY
    ) {
      const { delivery, claimedAt } = work.ready.shift()!;
      this.ready--;
      // The attempt must end (and be recorded) before the lease does, or another worker could
      // send it too: one that waited that long goes back.
      if (claimedAt <= claimedSince) {
        this.giveBack(delivery);
        continue;
      }
      work.inFlight++;
      started++;
      this.start(delivery, work);
    }
    return started;
  }

  /**
   * Gives back what waits for a slot and could no longer be sent and recorded within its
   * lease, whether a slot frees or not (left waiting, its lease would run out here and another
   * worker could send it while we still hold it). Each endpoint's line is in claim order.
   */
  private giveBackStale(): void {
    if (this.ready === 0) return;
    const claimedSince = performance.now() - this.startWithin;
    for (const [id, work] of this.endpoints) {
      const stale = work.ready.findIndex((leased) => leased.claimedAt > claimedSince);
      const gone = work.ready.splice(0, stale === -1 ? work.ready.length : stale);
      for (const { delivery } of gone) this.giveBack(delivery);
      this.ready -= gone.length;
      if (work.inFlight === 0 && work.ready.length === 0) this.endpoints.delete(id);
    }
  }

  /** Lets go of a delivery not attempted; its lease is cleared in the next round. */
  private giveBack(delivery: ClaimedDelivery): void {
    this.held.delete(delivery.id);
    this.releasing.push({ id: delivery.id, lease: delivery.lease });
  }

  private start(delivery: ClaimedDelivery, work: EndpointWork): void {
    const run = this.sender
      .send({
        url: delivery.url,
        secret: delivery.secret,
        deliveryId: delivery.id,
        event: delivery.event,
        body: JSON.stringify(delivery.payload),
      })
      .then((result) => {
        this.finished.push({ delivery, result, failures: 0 });
      })
      .finally(() => {
        this.sending.delete(run);
        work.inFlight--;
        // The slot goes to what waits at once; then record this attempt and, if more may be
        // due, claim for the room it left (now, not at the next interval).
        this.startReady();
        if (work.inFlight === 0 && work.ready.length === 0) {
          if (this.endpoints.get(delivery.endpoint_id) === work) {
            this.endpoints.delete(delivery.endpoint_id);
          }
        }
        void this.tick(this.moreDue);
      });
    this.sending.add(run);
  }

  /**
   * Gives back leases this worker will not use. A row's lease is cleared only if it is still
   * the one we took: one that ran out and was taken since (by another worker, or by us in a
   * later claim) is left alone.
   */
  private async releaseLeases(): Promise<void> {
    if (this.releasing.length === 0) return;
    const leases = this.releasing;
    this.releasing = [];
    try {
      await this.db.query(
        `UPDATE delivery.deliveries d SET lease_until = NULL
         FROM unnest($1::text[], $2::timestamptz[]) AS r (id, lease)
         WHERE d.id = r.id AND d.lease_until = r.lease`,
        [leases.map((release) => release.id), leases.map((release) => release.lease)],
      );
    } catch (error) {
      // Left to run out instead.
      this.warn(`leases not given back: ${(error as Error).message}`);
    }
  }

  /**
   * Records every answered attempt in one statement, unless the last rounds failed and their
   * backoff (200 ms, doubling, at most 5 s) has not ended: with Postgres away, a round costs
   * one statement whatever waits. A batch Postgres refuses for its data is recorded row by
   * row, so the row it refuses holds up no other; that row is given up at once. Other failures
   * are given up after RECORD_TRIES: the lease then runs out and the delivery is attempted
   * again (at-least-once).
   */
  private async recordFinished(): Promise<void> {
    if (this.finished.length === 0 || Date.now() < this.recordAt) return;
    const batch = this.finished;
    this.finished = [];
    await this.recordBatch(batch);
  }

  private async recordBatch(batch: Finished[]): Promise<void> {
    try {
      await this.record(batch);
      this.recorded(batch);
      return;
    } catch (error) {
      if (!refusedForData(error)) return this.recordFailed(batch, error);
      if (batch.length === 1) return this.giveUp(batch, error);
    }
    for (const [i, entry] of batch.entries()) {
      try {
        await this.record([entry]);
        this.recorded([entry]);
      } catch (error) {
        if (!refusedForData(error)) return this.recordFailed(batch.slice(i), error);
        this.giveUp([entry], error);
      }
    }
  }

  private recorded(entries: Finished[]): void {
    for (const { delivery } of entries) this.held.delete(delivery.id);
    this.recordFailures = 0;
    this.recordAt = 0;
  }

  /** Postgres could not be asked: the entries wait for the next try, all together. */
  private recordFailed(entries: Finished[], error: unknown): void {
    this.recordFailures++;
    this.recordAt = Date.now() + Math.min(200 * 2 ** (this.recordFailures - 1), 5_000);
    const givenUp: Finished[] = [];
    for (const entry of entries) {
      entry.failures++;
      if (entry.failures >= RECORD_TRIES) givenUp.push(entry);
      else this.finished.push(entry);
    }
    if (givenUp.length > 0) this.giveUp(givenUp, error);
  }

  /** Leaves the attempts unrecorded: their leases run out and they are attempted again. */
  private giveUp(entries: Finished[], error: unknown): void {
    for (const { delivery } of entries) this.held.delete(delivery.id);
    const ids = entries.map((entry) => entry.delivery.id);
    const more = ids.length > 1 ? ` and ${ids.length - 1} more` : '';
    this.warn(`attempt of ${ids[0]}${more} not recorded: ${(error as Error).message}`);
  }

  /**
   * One statement for any number of attempts: each delivery moves on and its attempt is
   * logged together. Only the holder of an attempt number records it: a lease that ran out
   * and was claimed again by another worker writes nothing twice.
   */
  private async record(entries: Finished[]): Promise<void> {
    const rows = entries.map(({ delivery, result }) => {
      const attempt = delivery.attempts + 1;
      let outcome = classify(result);
      if (outcome === 'retry' && attempt > this.delays.length) outcome = 'failed';
      return {
        id: delivery.id,
        attempt,
        status: outcome === 'retry' ? 'pending' : outcome,
        wait: outcome === 'retry' ? this.delays[attempt - 1]! : 0,
        result,
      };
    });
    await this.db.query(
      `WITH attempt AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[],
           $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::text[])
           AS a (delivery_id, attempt, status, wait_ms, started_at, duration_ms, status_code,
             error, response_body)),
       moved AS (
         UPDATE delivery.deliveries d
         SET attempts = a.attempt, status = a.status, lease_until = NULL,
             next_attempt_at = now() + a.wait_ms * interval '1 millisecond'
         FROM attempt a
         WHERE d.id = a.delivery_id AND d.attempts = a.attempt - 1
         RETURNING a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code,
           a.error, a.response_body)
       INSERT INTO delivery.delivery_attempts
         (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
       SELECT * FROM moved
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.attempt),
        rows.map((row) => row.status),
        rows.map((row) => row.wait),
        rows.map((row) => row.result.startedAt.toISOString()),
        rows.map((row) => row.result.durationMs),
        rows.map((row) => row.result.statusCode),
        rows.map((row) => row.result.error),
        rows.map((row) => row.result.responseBody),
      ],
    );
  }

  /** At most one line per 10 s: an outage would otherwise log every tick. */
  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(message);
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
