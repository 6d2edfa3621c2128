import { delay } from '@custodian/messaging';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
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
  /** Not before this (ms since the epoch): backoff after a failed recording. */
  retryAt: number;
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
 * round trip to Postgres. One that waited so long that its attempt could outlive its lease is
 * not started but given back.
 *
 * One loop does the database work: each round records every attempt answered since the last
 * one in one statement and, side by side, claims for the room there is; it goes round again
 * while attempts keep finishing. Attempts that finish together are recorded together, and a
 * slot is free as soon as its answer is in (the lease keeps the delivery from being claimed
 * again until it is recorded).
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly sender: WebhookSender;
  private readonly delays: number[];
  private readonly endpoints = new Map<string, EndpointWork>();
  /** HTTP attempts in flight. */
  private readonly sending = new Set<Promise<void>>();
  /** Claimed deliveries waiting for a slot, in all endpoints. */
  private ready = 0;
  /** Attempts answered and not yet recorded. */
  private finished: Finished[] = [];
  /** Attempts being recorded right now. */
  private recording = 0;
  /** Leases to give back (waited too long, or shutting down). */
  private releasing: string[] = [];
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
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.DELIVERY_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pumping;
    // What waits for a slot is given back at once rather than left to its lease.
    for (const work of this.endpoints.values()) {
      this.releasing.push(...work.ready.map((leased) => leased.delivery.id));
      this.ready -= work.ready.length;
      work.ready = [];
    }
    // Attempts in flight finish (bounded by the attempt timeout) and are recorded, including
    // recordings that are backing off after a failure (bounded by RECORD_TRIES).
    await this.tick();
    await Promise.allSettled([...this.sending]);
    await this.tick();
    while (this.finished.length > 0) {
      const next = Math.min(...this.finished.map((entry) => entry.retryAt));
      await delay(Math.max(0, next - Date.now()));
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
    // Leases this worker holds: attempts in flight, waiting for a slot, or not yet recorded.
    // In flight is bounded by DELIVERY_CONCURRENCY when attempts start; what waits for a
    // slot, in all, by DELIVERY_CONCURRENCY again.
    const held = this.sending.size + this.ready + this.finished.length + this.recording;
    const free = c.DELIVERY_CONCURRENCY * (c.DELIVERY_PREFETCH > 0 ? 2 : 1) - held;
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
    // of due candidates); endpoints without room are left out. Candidates are read without
    // locks; only the chosen rows are locked (SKIP LOCKED, and rechecked: one another worker
    // leased since our snapshot no longer qualifies), so a claim writes no more than it takes.
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
           AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
         FOR UPDATE OF d SKIP LOCKED)
       UPDATE delivery.deliveries d
       SET lease_until = now() + $2 * interval '1 millisecond'
       FROM delivery.endpoints e
       WHERE d.id = ANY (ARRAY (SELECT id FROM locked)) AND e.id = d.endpoint_id
       RETURNING d.id, d.endpoint_id, d.event, d.payload, d.attempts, e.url, e.secret`,
      [
        free,
        c.DELIVERY_LEASE_MS,
        busy.map(([id]) => id),
        busy.map(([, taken]) => taken),
        Math.max(free * 5, 500),
        most,
        full,
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

  /** Starts what waits, as far as the per-endpoint and global caps allow. */
  private startReady(): void {
    if (this.ready === 0) return;
    for (const [id, work] of this.endpoints) {
      this.startFor(work);
      if (work.inFlight === 0 && work.ready.length === 0) this.endpoints.delete(id);
      if (this.sending.size >= this.config.DELIVERY_CONCURRENCY) return;
    }
  }

  private startFor(work: EndpointWork): void {
    const c = this.config;
    while (
      work.ready.length > 0 &&
      work.inFlight < c.DELIVERY_PER_ENDPOINT &&
      this.sending.size < c.DELIVERY_CONCURRENCY
    ) {
      const { delivery, claimedAt } = work.ready.shift()!;
      this.ready--;
      // The attempt must end (DELIVERY_TIMEOUT_MS at most) before the lease does, or another
      // worker could send it too: one that waited that long goes back.
      if (performance.now() - claimedAt + c.DELIVERY_TIMEOUT_MS >= c.DELIVERY_LEASE_MS) {
        this.releasing.push(delivery.id);
        continue;
      }
      work.inFlight++;
      this.start(delivery, work);
    }
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
        this.finished.push({ delivery, result, failures: 0, retryAt: 0 });
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
   * Gives back leases this worker will not use. Only a lease still running is cleared: until
   * it runs out nobody else can have claimed the row, so this never clears another's lease.
   */
  private async releaseLeases(): Promise<void> {
    if (this.releasing.length === 0) return;
    const ids = this.releasing;
    this.releasing = [];
    try {
      await this.db.query(
        `UPDATE delivery.deliveries SET lease_until = NULL
         WHERE id = ANY ($1::text[]) AND lease_until > now()`,
        [ids],
      );
    } catch (error) {
      // Left to run out instead.
      this.warn(`leases not given back: ${(error as Error).message}`);
    }
  }

  /**
   * Records the answered attempts that are due: first tries all in one statement; ones whose
   * recording failed before one by one (a row Postgres refuses then holds up no other).
   * Failures back off (200 ms, doubling) and are given up after RECORD_TRIES: the lease then
   * runs out and the delivery is attempted again (at-least-once).
   */
  private async recordFinished(): Promise<void> {
    const now = Date.now();
    const due = this.finished.filter((entry) => entry.retryAt <= now);
    if (due.length === 0) return;
    this.finished = this.finished.filter((entry) => entry.retryAt > now);
    const fresh = due.filter((entry) => entry.failures === 0);
    const groups = [fresh, ...due.filter((entry) => entry.failures > 0).map((entry) => [entry])];
    for (const group of groups) {
      if (group.length === 0) continue;
      this.recording += group.length;
      try {
        await this.record(group);
      } catch (error) {
        for (const entry of group) {
          entry.failures++;
          if (entry.failures >= RECORD_TRIES) {
            this.warn(`attempt of ${entry.delivery.id} not recorded: ${(error as Error).message}`);
            continue;
          }
          entry.retryAt = Date.now() + 200 * 2 ** (entry.failures - 1);
          this.finished.push(entry);
        }
      } finally {
        this.recording -= group.length;
      }
    }
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
