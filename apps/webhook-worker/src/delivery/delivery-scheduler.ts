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

/**
 * Sends due deliveries. Each tick claims a batch with a lease (FOR UPDATE SKIP LOCKED, so
 * replicas share the table) and commits at once: no transaction is held over HTTP. A worker
 * that dies mid-attempt leaves a lease that runs out, and the delivery is claimed again.
 * Concurrency is bounded in all and per endpoint, so one slow receiver cannot take every slot.
 */
@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly sender: WebhookSender;
  private readonly delays: number[];
  private readonly perEndpoint = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private wanted = false;
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
    await this.ticking;
    // Attempts in flight finish and are recorded (bounded by the attempt timeout).
    await Promise.allSettled([...this.running]);
    await this.sender.close();
  }

  /** Claims what is due and starts sending it; one tick at a time. */
  tick(): Promise<void> {
    this.ticking ??= this.claimAndStart()
      .catch((error: unknown) =>
        this.warn(`delivery scheduler paused: ${(error as Error).message}`),
      )
      .finally(() => {
        this.ticking = null;
        // Slots freed while this claim ran: claim once more for them.
        if (this.wanted && this.timer) void this.tick();
      });
    return this.ticking;
  }

  private async claimAndStart(): Promise<void> {
    this.wanted = false;
    const free = this.config.DELIVERY_CONCURRENCY - this.running.size;
    if (free <= 0 || !this.timer) return;
    const inFlight = [...this.perEndpoint];
    // Claims only what can start now: per endpoint, at most the room its cap leaves (ranked
    // among a bounded set of due candidates), so nothing is claimed only to be given back.
    // TypeORM returns [rows, count] for UPDATE ... RETURNING.
    const [claimed] = await this.db.query<[ClaimedDelivery[], number]>(
      `WITH busy AS (
         SELECT * FROM unnest($3::text[], $4::int[]) AS b(endpoint_id, in_flight)),
       candidates AS (
         SELECT id, endpoint_id, next_attempt_at FROM delivery.deliveries
         WHERE status = 'pending' AND next_attempt_at <= now()
           AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at
         LIMIT $5
         FOR UPDATE SKIP LOCKED),
       ranked AS (
         SELECT c.id, c.next_attempt_at,
           row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at) AS n,
           $6 - coalesce(b.in_flight, 0) AS room
         FROM candidates c LEFT JOIN busy b USING (endpoint_id)),
       chosen AS (
         SELECT id FROM ranked WHERE n <= room ORDER BY next_attempt_at LIMIT $1)
       UPDATE delivery.deliveries d
       SET lease_until = now() + $2 * interval '1 millisecond'
       FROM delivery.endpoints e, chosen
       WHERE d.id = chosen.id AND e.id = d.endpoint_id
       RETURNING d.id, d.endpoint_id, d.event, d.payload, d.attempts, e.url, e.secret`,
      [
        free,
        this.config.DELIVERY_LEASE_MS,
        inFlight.map(([id]) => id),
        inFlight.map(([, n]) => n),
        Math.max(free * 5, 500),
        this.config.DELIVERY_PER_ENDPOINT,
      ],
    );
    const release: string[] = [];
    for (const delivery of claimed) {
      const inFlight = this.perEndpoint.get(delivery.endpoint_id) ?? 0;
      if (inFlight >= this.config.DELIVERY_PER_ENDPOINT) {
        release.push(delivery.id);
        continue;
      }
      this.perEndpoint.set(delivery.endpoint_id, inFlight + 1);
      const run = this.attempt(delivery).finally(() => {
        this.running.delete(run);
        const left = (this.perEndpoint.get(delivery.endpoint_id) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(delivery.endpoint_id, left);
        else this.perEndpoint.delete(delivery.endpoint_id);
        // A slot is free now: claim again at once instead of waiting for the next tick, or
        // one endpoint would be capped at DELIVERY_PER_ENDPOINT per interval.
        this.wanted = true;
        void this.tick();
      });
      this.running.add(run);
    }
    if (release.length > 0) {
      // Over the endpoint's cap this tick: give the lease back for a later tick.
      await this.db.query(
        `UPDATE delivery.deliveries SET lease_until = NULL WHERE id = ANY($1::text[])`,
        [release],
      );
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const result = await this.sender.send({
      url: delivery.url,
      secret: delivery.secret,
      deliveryId: delivery.id,
      event: delivery.event,
      body: JSON.stringify(delivery.payload),
    });
    for (let tries = 0; ; tries++) {
      try {
        await this.record(delivery, result);
        return;
      } catch (error) {
        // Postgres hiccup: try to record a little longer; after that the lease runs out and
        // the delivery is attempted again (at-least-once).
        if (tries >= 5) {
          this.warn(`attempt of ${delivery.id} not recorded: ${(error as Error).message}`);
          return;
        }
        await delay(200 * 2 ** tries);
      }
    }
  }

  private async record(delivery: ClaimedDelivery, result: AttemptResult): Promise<void> {
    const attempt = delivery.attempts + 1;
    let outcome = classify(result);
    if (outcome === 'retry' && attempt > this.delays.length) outcome = 'failed';
    const wait = outcome === 'retry' ? this.delays[attempt - 1]! : 0;
    // One statement, so one round trip: the delivery moves on and its attempt is logged
    // together. Only the holder of this attempt number records it: a lease that ran out and
    // was claimed again by another worker writes nothing twice.
    await this.db.query(
      `WITH moved AS (
         UPDATE delivery.deliveries
         SET attempts = $2, status = $3, lease_until = NULL,
             next_attempt_at = now() + $4 * interval '1 millisecond'
         WHERE id = $1 AND attempts = $5
         RETURNING id)
       INSERT INTO delivery.delivery_attempts
         (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
       SELECT id, $2, $6, $7, $8, $9, $10 FROM moved
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
      [
        delivery.id,
        attempt,
        outcome === 'retry' ? 'pending' : outcome,
        wait,
        delivery.attempts,
        result.startedAt,
        result.durationMs,
        result.statusCode,
        result.error,
        result.responseBody,
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
