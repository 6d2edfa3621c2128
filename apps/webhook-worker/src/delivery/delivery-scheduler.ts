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
import { boundedResolver } from '../webhooks/dns-resolver';
import { signingSecretCipher } from '../webhooks/signing-secrets';
import {
  debugLines,
  inSpan,
  observeDueDeliveries,
  observeLeases,
  runInMessageContext,
} from '@custodian/observability';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AttemptRecorder } from './attempt-recorder';
import {
  DeliveryLeases,
  type ClaimedDelivery,
  type EndpointChange,
  type HeldLease,
} from './delivery-leases';
import { WebhookSender, classify } from './sender';
import { SlotAllocator, startWindow } from './slot-allocator';

/**
 * Sends due deliveries: the loop that wires the lease statements (DeliveryLeases), the slot
 * allocator (which leased delivery takes which free slot, and what goes back) and the attempt
 * recorder to the sender, on a timer, and drains them on shutdown.
 *
 * Claims take a lease and commit at once: no transaction is held over HTTP. A worker that dies
 * mid-attempt leaves a lease that runs out, and the delivery is claimed again. A lease is only
 * ever given back while it is still ours (the release names the lease it clears), and a claim
 * never takes a delivery this worker still holds, so one worker cannot send the same delivery
 * twice.
 *
 * One loop does the database work: each round gives back what waited past its safe start,
 * records every attempt answered since the last one in one statement and, side by side, claims
 * for the room there is; it goes round again while attempts keep finishing. A slot is free as
 * soon as its answer is in (the lease keeps the delivery from being claimed again until it is
 * recorded).
 */
/** How long a stopping worker keeps trying to record the attempts it has answers for. */
const SHUTDOWN_RECORDING_MS = 10_000;

@Injectable()
export class DeliveryScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryScheduler');
  private readonly sender: WebhookSender;
  private readonly leases: DeliveryLeases;
  private readonly slots: SlotAllocator<ClaimedDelivery>;
  private readonly recorder: AttemptRecorder;
  /** Deliveries this worker holds a lease on: in flight, waiting, answered, being recorded. */
  private readonly held = new Set<string>();
  /** HTTP attempts in flight. */
  private readonly sending = new Set<Promise<void>>();
  /** Leases to give back (waited too long, or shutting down). */
  private releasing: HeldLease[] = [];
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  /** Another round is wanted; and whether it is to claim (not only to record). */
  private wanted = false;
  private claimWanted = false;
  private lastWarning = 0;

  constructor(
    db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {
    observeLeases(() => this.held.size);
    this.sender = new WebhookSender(config.DELIVERY_TIMEOUT_MS, {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      resolve: boundedResolver({ timeoutMs: config.DELIVERY_DNS_TIMEOUT_MS }),
      cipher: signingSecretCipher(config),
    });
    this.leases = new DeliveryLeases(db, {
      afterFailures: config.WEBHOOK_AUTO_DISABLE_AFTER_FAILURES,
      afterHours: config.WEBHOOK_AUTO_DISABLE_AFTER_HOURS,
    });
    observeDueDeliveries(() => this.leases.due());
    this.slots = new SlotAllocator({
      concurrency: config.DELIVERY_CONCURRENCY,
      perWorkspace: config.DELIVERY_PER_WORKSPACE,
      perEndpoint: config.DELIVERY_PER_ENDPOINT,
      prefetch: config.DELIVERY_PREFETCH,
      startWithin: startWindow(config.DELIVERY_LEASE_MS, config.DELIVERY_TIMEOUT_MS),
    });
    this.recorder = new AttemptRecorder(
      this.leases,
      retryDelays(config),
      (message) => this.warn(message),
      (changes) => this.endpointsChanged(changes),
    );
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
    for (const delivery of this.slots.drain()) this.giveBack(delivery);
    // Attempts in flight finish (bounded by the attempt timeout) and are recorded, including
    // recordings that are backing off after a failure (bounded by the recorder's tries).
    await this.tick();
    await Promise.allSettled([...this.sending]);
    await this.tick();
    // Recording goes on while Postgres is away, for a while: past it, what is left is let go
    // (leases run out; those deliveries are attempted again).
    const giveUpAt = Date.now() + SHUTDOWN_RECORDING_MS;
    while (this.recorder.waiting > 0 && Date.now() < giveUpAt) {
      await delay(Math.max(0, Math.min(this.recorder.retryAt, giveUpAt) - Date.now()));
      await this.tick();
    }
    for (const id of this.recorder.abandon()) this.held.delete(id);
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
      for (const delivery of this.slots.stale(performance.now())) this.giveBack(delivery);
      const claim = this.claimWanted && this.timer !== null;
      this.claimWanted = false;
      // Recording and claiming are independent (a claim never takes a leased row, and slots
      // free up when the answer is in, not when it is recorded): one round trip for both.
      const outcomes = await Promise.allSettled([
        this.record(),
        this.release(),
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
    const room = this.slots.room(this.held.size);
    if (!room) return;
    // The claim's clock starts before it is sent: the lease Postgres writes is younger.
    const claimedAt = performance.now();
    const claimed = await this.leases.claim({
      ...room,
      leaseMs: this.config.DELIVERY_LEASE_MS,
      held: [...this.held],
    });
    for (const delivery of claimed) this.held.add(delivery.id);
    this.slots.claimed(room, claimed, claimedAt);
    this.startReady();
  }

  /** Starts what the allocator gives free slots, and lets go of what waited too long. */
  private startReady(): void {
    const { start, giveBack } = this.slots.allocate(performance.now());
    for (const delivery of giveBack) this.giveBack(delivery);
    for (const delivery of start) this.start(delivery);
  }

  /** Lets go of a delivery not attempted; its lease is cleared in the next round. */
  private giveBack(delivery: ClaimedDelivery): void {
    this.held.delete(delivery.id);
    this.releasing.push({ id: delivery.id, lease: delivery.lease });
  }

  /** In the context of the request that caused the delivery: its lines name that request. */
  private start(delivery: ClaimedDelivery): void {
    const run = runInMessageContext(delivery.context, () => this.attempt(delivery)).finally(() => {
      this.sending.delete(run);
      // The slot goes to what waits at once; then record this attempt and, if more may be
      // due, claim for the room it left (now, not at the next interval).
      this.slots.finished(delivery);
      this.startReady();
      void this.tick(this.slots.moreDue);
    });
    this.sending.add(run);
  }

  /** One attempt, as a span of the trace of the write that caused it (when tracing is on). */
  private attempt(delivery: ClaimedDelivery): Promise<void> {
    return inSpan(
      `webhook ${delivery.event}`,
      () => ({
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'server.address': hostOf(delivery.url),
          'custodian.delivery.id': delivery.id,
          'custodian.delivery.attempt': delivery.attempts + 1,
        },
      }),
      async (span) => {
        const result = await this.sender.send({
          url: delivery.url,
          secret: delivery.secret,
          previousSecret: delivery.previousSecret,
          deliveryId: delivery.id,
          event: delivery.event,
          body: delivery.body,
        });
        if (span) {
          if (result.statusCode !== null) {
            span.setAttribute('http.response.status_code', result.statusCode);
          }
          if (result.error) span.setAttribute('error.type', result.error);
          if (classify(result) !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR });
        }
        if (debugLines()) {
          this.logger.debug(
            `delivery ${delivery.id} (${delivery.event}) to endpoint ${delivery.endpointId}, ` +
              `attempt ${delivery.attempts + 1}: ${result.statusCode ?? result.error} in ` +
              `${result.durationMs} ms`,
          );
        }
        this.recorder.add(delivery, result);
      },
    );
  }

  private async record(): Promise<void> {
    for (const id of await this.recorder.record()) this.held.delete(id);
  }

  /** Gives back leases this worker will not use; on failure they are left to run out. */
  private async release(): Promise<void> {
    if (this.releasing.length === 0) return;
    const leases = this.releasing;
    this.releasing = [];
    try {
      await this.leases.release(leases);
    } catch (error) {
      this.warn(`leases not given back: ${(error as Error).message}`);
    }
  }

  /** Each endpoint disabled for its failures is a warning (its owner must act), never muted. */
  private endpointsChanged(changes: EndpointChange[]): void {
    for (const endpoint of changes) {
      if (endpoint.change === 'auto_disabled') {
        this.logger.warn(
          `webhook endpoint ${endpoint.id} (workspace ${endpoint.workspaceId}, ${endpoint.url}) ` +
            `disabled after ${endpoint.consecutiveFailures} failed deliveries in a row; ` +
            'its pending deliveries wait until it is enabled again',
        );
      } else {
        this.logger.log(
          `webhook endpoint ${endpoint.id} (workspace ${endpoint.workspaceId}) enabled again: ` +
            'a Test ping was delivered',
        );
        // Its waiting deliveries are due now.
        void this.tick();
      }
    }
  }

  /** At most one line per 10 s: an outage would otherwise log every tick. */
  private warn(message: string): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn(message);
  }
}

/** The endpoint's host for a span, never its path or query (they may hold a token). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
