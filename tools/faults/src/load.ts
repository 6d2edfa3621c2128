import { Agent, request } from 'undici';
import { sleep } from './commands';

/** One HTTP attempt of a write: its answer, or the network error it met instead. */
export interface Attempt {
  startedAt: number;
  endedAt: number;
  gateway: string;
  /** null: no HTTP answer (refused, reset, timed out). */
  status: number | null;
  error?: string;
  /** X-Quota-Used of the answer, when it carried one. */
  quotaUsed?: number;
}

/**
 * One asset write with its Idempotency-Key, and what became of it: acknowledged (2xx), given
 * up (still failing with a retryable answer when the retry budget ran out) or refused (an
 * answer that is not retried).
 */
export interface WriteRecord {
  key: string;
  window: string;
  startedAt: number;
  attempts: Attempt[];
  outcome: 'pending' | 'acked' | 'gave_up' | 'refused';
  assetId?: string;
  /** A check-out (`assigned_to_id`) due back then (ms since the epoch): owes an overdue. */
  dueAt?: number;
}

/** What makes a write a check-out with a due date: to whom, and how far ahead it is due. */
export interface Checkout {
  personId: string;
  dueInMs: number;
}

export interface WriteClientOptions {
  /** The gateways' API base URLs: attempts go round them (a replica may be down). */
  gateways: () => string[];
  apiKey: string;
  /** How long a write keeps retrying network errors, 503 and 504. */
  retryBudgetMs: number;
  /** Prefix of every key: the run's. */
  run: string;
  /**
   * Requests a connection carries before the client closes it (none: kept while used). Behind
   * the replicas run's connection-level balancer a kept connection stays on one gateway for
   * good: a gateway restarted after a kill would get no new connection under a steady load
   * and sit idle for the rest of the run. Closing each after a few dozen requests makes the
   * client open new ones all the time, which the balancer spreads over every gateway up.
   */
  requestsPerConnection?: number;
}

/** Answers a client should retry with the same key (the contract's 503/504, and no answer). */
export function retryable(status: number | null): boolean {
  return status === null || status === 503 || status === 504;
}

/**
 * The writer: POST /assets through the gateway, every write carrying an Idempotency-Key and
 * retried with it on network errors, 503 and 504 with a growing backoff, up to the retry
 * budget. Each asset's serial_number is its key, so Postgres says how often a key was applied.
 */
export class WriteClient {
  readonly writes: WriteRecord[] = [];
  private readonly agent: Agent;
  private sequence = 0;

  constructor(private readonly options: WriteClientOptions) {
    this.agent = new Agent({
      keepAliveTimeout: 4_000,
      connect: { timeout: 5_000 },
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
      ...(options.requestsPerConnection
        ? { maxRequestsPerClient: options.requestsPerConnection }
        : {}),
    });
  }

  /**
   * One POST /assets; with `checkout`, the asset is checked out to that person, due back
   * `dueInMs` from now. Its retries send the same body (the key's fingerprint): one sent after
   * the due date is refused (422) unless the first attempt was applied.
   */
  async write(window: string, checkout?: Checkout): Promise<WriteRecord> {
    const n = this.sequence++;
    const key = `${this.options.run}-${window}-${n}`;
    const startedAt = Date.now();
    const record: WriteRecord = {
      key,
      window,
      startedAt,
      attempts: [],
      outcome: 'pending',
      ...(checkout ? { dueAt: startedAt + checkout.dueInMs } : {}),
    };
    this.writes.push(record);
    const body = JSON.stringify({
      name: `Fault ledger ${key}`,
      serial_number: key,
      ...(checkout && record.dueAt !== undefined
        ? { assigned_to_id: checkout.personId, due_at: new Date(record.dueAt).toISOString() }
        : {}),
    });
    for (let attempt = 0; ; attempt++) {
      const gateways = this.options.gateways();
      const gateway = gateways[(n + attempt) % gateways.length] ?? '';
      const result = await this.attempt(gateway, '/assets', key, body);
      record.attempts.push(result.attempt);
      if (
        result.attempt.status !== null &&
        result.attempt.status >= 200 &&
        result.attempt.status < 300
      ) {
        record.outcome = 'acked';
        record.assetId = result.id;
        return record;
      }
      if (!retryable(result.attempt.status)) {
        record.outcome = 'refused';
        return record;
      }
      const elapsed = Date.now() - record.startedAt;
      if (elapsed >= this.options.retryBudgetMs) {
        record.outcome = 'gave_up';
        return record;
      }
      // 100 ms doubling to 2 s, with jitter so that retries do not arrive in waves.
      const backoff = Math.min(2_000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await sleep(Math.min(backoff, this.options.retryBudgetMs - elapsed));
    }
  }

  /** The person the load's check-outs go to (POST /people, before any fault). */
  async person(name: string): Promise<string> {
    const gateway = this.options.gateways()[0] ?? '';
    const key = `${this.options.run}-person`;
    const body = JSON.stringify({ full_name: name });
    const { attempt, id } = await this.attempt(gateway, '/people', key, body);
    if (!id) throw new Error(`POST /people answered ${attempt.status}: ${attempt.error ?? ''}`);
    return id;
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  /** One POST; `id` is the created record's (an asset's, or the person's). */
  private async attempt(
    gateway: string,
    path: string,
    key: string,
    body: string,
  ): Promise<{ attempt: Attempt; id?: string }> {
    const startedAt = Date.now();
    try {
      const response = await request(`${gateway}${path}`, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body,
      });
      const text = await response.body.text();
      const quota = response.headers['x-quota-used'];
      const attempt: Attempt = {
        startedAt,
        endedAt: Date.now(),
        gateway,
        status: response.statusCode,
        ...(typeof quota === 'string' && /^\d+$/.test(quota) ? { quotaUsed: Number(quota) } : {}),
      };
      if (response.statusCode >= 200 && response.statusCode < 300) {
        const created = JSON.parse(text) as { id?: string };
        return { attempt, id: created.id };
      }
      if (!retryable(response.statusCode)) attempt.error = text.slice(0, 300);
      return { attempt };
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        attempt: {
          startedAt,
          endedAt: Date.now(),
          gateway,
          status: null,
          error: code ?? (error as Error).message,
        },
      };
    }
  }
}

/**
 * A steady stream of writes, `rate` a second, each started on time whatever the others are
 * doing (a write that waits on retries does not hold back the next one), as clients do. Every
 * `checkoutEvery`-th write is a check-out due a few seconds ahead (the time-based events the
 * ledger checks), until `endCheckouts()`.
 */
export class SteadyLoad {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<WriteRecord>>();
  private checkouts = false;

  constructor(
    private readonly client: WriteClient,
    private readonly checkout?: Checkout & { every: number },
  ) {}

  start(window: string, rate: number): void {
    const startedAt = Date.now();
    let started = 0;
    this.checkouts = this.checkout !== undefined;
    this.timer = setInterval(() => {
      const due = Math.floor(((Date.now() - startedAt) / 1000) * rate);
      for (; started < due; started++) {
        const checkout =
          this.checkouts && this.checkout && started % this.checkout.every === 0
            ? this.checkout
            : undefined;
        const write = this.client.write(window, checkout);
        this.inFlight.add(write);
        void write.finally(() => this.inFlight.delete(write));
      }
    }, 10);
  }

  /**
   * Plain writes only from now on: a window ends its check-outs once the load has recovered,
   * so that the last due dates pass while its load still runs rather than in its settle.
   */
  endCheckouts(): void {
    this.checkouts = false;
  }

  /** Starts no more writes and waits until every started one has its outcome. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.inFlight]);
  }
}

/**
 * `count` writes as fast as `concurrency` lanes allow; `onAcked` hears each acknowledgement
 * (the backlog fault restarts the broker half-way through).
 */
export async function burst(
  client: WriteClient,
  window: string,
  count: number,
  concurrency: number,
  onAcked: (acked: number) => void,
): Promise<void> {
  let started = 0;
  let acked = 0;
  const lane = async () => {
    while (started < count) {
      started++;
      const record = await client.write(window);
      if (record.outcome === 'acked') onAcked(++acked);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}
