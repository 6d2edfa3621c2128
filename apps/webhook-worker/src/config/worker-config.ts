import {
  EVENTS_DEAD_LETTER_EXCHANGE,
  EVENTS_DEAD_LETTER_QUEUE,
  EVENTS_EXCHANGE,
  EVENT_FEED_RETENTION_DAYS,
  WORKER_ADMIN_QUEUE,
  WORKER_EVENTS_QUEUE,
} from '@custodian/contracts';
import { loadConfig, relaxedDefaults } from '@custodian/config';
import { developmentSecretKeys, secretKeysProblem } from '@custodian/secret-cipher';
import { IsIn, IsInt, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';

/** The variable that holds the keys of the webhook signing secrets. */
export const WEBHOOK_SECRET_KEYS = 'WEBHOOK_SECRET_KEYS';

/** Why a WEBHOOK_SECRET_KEYS value is refused, or null (the rules: secretKeysProblem). */
function keysProblem(value: unknown): string | null {
  return secretKeysProblem(value, WEBHOOK_SECRET_KEYS, relaxedDefaults());
}

export class WorkerConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/custodian';

  @Matches(/^amqps?:\/\//, { message: 'RABBITMQ_URL must be an amqp:// URL' })
  RABBITMQ_URL: string = 'amqp://guest:guest@127.0.0.1:5672';

  @IsString() EVENTS_EXCHANGE: string = EVENTS_EXCHANGE;

  /**
   * The quorum queue the worker consumes (bound to every event). Not the earlier
   * `custodian.webhook-worker.events`: that one exists on dev brokers without a delivery limit
   * and redeclaring it with other arguments fails (PRECONDITION_FAILED).
   */
  @IsString() EVENTS_QUEUE: string = WORKER_EVENTS_QUEUE;

  /** Where an event goes after EVENTS_DELIVERY_LIMIT failed deliveries (a poison message). */
  @IsString() EVENTS_DEAD_LETTER_EXCHANGE: string = EVENTS_DEAD_LETTER_EXCHANGE;
  @IsString() EVENTS_DEAD_LETTER_QUEUE: string = EVENTS_DEAD_LETTER_QUEUE;
  @IsInt() @Min(1) @Max(100) EVENTS_DELIVERY_LIMIT: number = 5;
  /**
   * The largest fan-out batch; twice as many event messages may be delivered and not yet
   * acked, so the next batch is there when one is stored. Events are stored in batches of what
   * has arrived, so a window of a few hundred keeps Postgres round trips per event low under a
   * burst (with 50, the webhooks bench's burst of 2,000 took about 1.6 times as long to
   * store).
   */
  @IsInt() @Min(1) @Max(1000) EVENTS_PREFETCH: number = 200;

  /** The worker's admin queue (webhook endpoints, Test ping, delivery log). */
  @IsString() WORKER_ADMIN_QUEUE: string = WORKER_ADMIN_QUEUE;

  /** How often the scheduler looks for due deliveries. */
  @IsInt() @Min(10) @Max(60_000) DELIVERY_INTERVAL_MS: number = 100;
  /**
   * Deliveries in flight at once, in all, per workspace and per endpoint (per worker process).
   * The workspace cap is what keeps one workspace's dead or slow receivers from holding every
   * slot: K workspaces whose receivers all hang take K x DELIVERY_PER_WORKSPACE slots, and the
   * rest stay free for the others (with the defaults, up to 9 such workspaces at once).
   */
  @IsInt() @Min(1) @Max(2000) DELIVERY_CONCURRENCY: number = 200;
  @IsInt() @Min(1) @Max(1000) DELIVERY_PER_WORKSPACE: number = 20;
  @IsInt() @Min(1) @Max(100) DELIVERY_PER_ENDPOINT: number = 10;
  /**
   * Due deliveries leased ahead per endpoint beyond its free slots, so a slot that frees
   * starts the next attempt without waiting for a round trip to Postgres (which, on a busy
   * machine, takes longer than the request); 0 claims only what can start. In all, a worker
   * holds (in flight and waiting) at most twice DELIVERY_CONCURRENCY.
   */
  @IsInt() @Min(0) @Max(100) DELIVERY_PREFETCH: number = 20;
  /** How long resolving a webhook target's name may take before the attempt fails (dns). */
  @IsInt() @Min(50) @Max(30_000) DELIVERY_DNS_TIMEOUT_MS: number = 2_000;
  /** Whole-attempt timeout (connect, headers, body), spec 6.3: 10 s. */
  @IsInt() @Min(50) @Max(60_000) DELIVERY_TIMEOUT_MS: number = 10_000;
  /** Waits before attempts 2, 3, ...; their count + 1 is the number of attempts. */
  @Matches(/^\d{1,7}(,\d{1,7}){0,9}$/, {
    message: 'DELIVERY_RETRY_DELAYS_MS must be a comma list of milliseconds',
  })
  DELIVERY_RETRY_DELAYS_MS: string = '300,900';
  /**
   * How long a claimed delivery is leased; a worker that dies mid-attempt leaves it to be
   * claimed again after this. Must exceed DELIVERY_TIMEOUT_MS.
   */
  @IsInt() @Min(1_000) @Max(600_000) DELIVERY_LEASE_MS: number = 30_000;

  /** The worker speaks no public HTTP; this port serves only /health. */
  @IsInt() @Min(0) @Max(65535) HEALTH_PORT: number = 3002;

  /**
   * Days a finished delivery (delivered or failed) and its attempts stay in the delivery log
   * before they are pruned; pending deliveries are never pruned.
   */
  @IsInt() @Min(1) @Max(3_650) DELIVERY_RETENTION_DAYS: number = 30;

  /**
   * Days the change feed (GET /api/v1/events) keeps an event; a cursor older than that is a
   * 410. The contract's EVENT_FEED_RETENTION_DAYS by default (the API documents it).
   */
  @IsInt() @Min(1) @Max(3_650) EVENT_FEED_RETENTION_DAYS: number = EVENT_FEED_RETENTION_DAYS;

  /**
   * An endpoint is disabled (`disabled_reason: auto`) once this many deliveries in a row
   * failed (all their attempts) AND the first of them failed at least
   * WEBHOOK_AUTO_DISABLE_AFTER_HOURS ago: a receiver down for a night is not given up, one
   * dead for a day is. A delivered delivery ends the run; a person, or a delivered Test ping,
   * enables it again.
   */
  @IsInt() @Min(1) @Max(1_000_000) WEBHOOK_AUTO_DISABLE_AFTER_FAILURES: number = 50;
  @IsInt() @Min(0) @Max(8_760) WEBHOOK_AUTO_DISABLE_AFTER_HOURS: number = 24;

  /**
   * The worker's outbox: the notices of endpoints it disabled, which the register e-mails
   * about. They are rare and a second's wait for an e-mail is nothing, so unlike the gateway's
   * and the register's the relay only polls (OUTBOX_POLL_MS) by default: no LISTEN connection
   * per replica beside the pool (deploy/kubernetes/README.md counts them). `on` wakes it at
   * commit. OUTBOX_RETENTION_HOURS: how long published rows are kept.
   */
  @IsIn(['on', 'off']) OUTBOX_LISTEN: 'on' | 'off' = 'off';
  @IsInt() @Min(10) @Max(60_000) OUTBOX_POLL_MS: number = 1_000;
  @IsInt() @Min(1) @Max(8_760) OUTBOX_RETENTION_HOURS: number = 72;

  @IsString() HOST: string = '0.0.0.0';

  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /** Days the activity feed keeps an entry (its table is pruned every hour). */
  @IsInt() @Min(1) @Max(36_500) ACTIVITY_RETENTION_DAYS: number = 365;

  /**
   * The most any statement of the serving pool, and any wait for a lock, may take (ms; the
   * migrations take as long as they need): a statement stuck behind a lock, or one nobody
   * waits for any more, is cancelled rather than left holding a connection of the pool;
   * the worker's largest are an endpoint's delete (its deliveries cascade) and a bulk resend; thirty seconds lets them finish.
   */
  @IsInt() @Min(100) @Max(600_000) DATABASE_STATEMENT_TIMEOUT_MS: number = 30_000;

  /**
   * Whether webhook targets on loopback or private networks are allowed. On by default only
   * where NODE_ENV is development or test (npm start, the tests), so a local receiver works;
   * off everywhere else, an unset NODE_ENV included. When off, targets
   * must be https and resolve only to public addresses, checked at creation and again at
   * connect time (webhooks/target-url.ts, webhooks/ssrf-guard.ts).
   */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_TARGETS: string = relaxedDefaults() ? 'true' : 'false';

  /**
   * The keys that encrypt webhook signing secrets at rest (AES-256-GCM, webhooks/
   * signing-secrets.ts): `id:base64key,...`, 32-byte keys. The first encrypts; each decrypts
   * what it encrypted, and at start the worker re-encrypts what older keys hold, so a key is
   * rotated by putting a new one first and dropping the old one once that is done. Required,
   * and the development key refused, unless NODE_ENV is development or test, where it is the
   * default so that `npm start` and the tests need no setup (it is in the source: it protects
   * nothing).
   */
  @ValidateBy({
    name: 'isSecretKeyList',
    validator: {
      validate: (value: unknown) => keysProblem(value) === null,
      defaultMessage: (args) => keysProblem(args?.value) ?? '',
    },
  })
  WEBHOOK_SECRET_KEYS: string = relaxedDefaults() ? developmentSecretKeys(WEBHOOK_SECRET_KEYS) : '';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: string = 'info';

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const config = loadConfig(WorkerConfig, env);
  if (config.DELIVERY_LEASE_MS <= config.DELIVERY_TIMEOUT_MS) {
    throw new Error('DELIVERY_LEASE_MS must be greater than DELIVERY_TIMEOUT_MS');
  }
  return config;
}

/** The waits before each retry, in milliseconds. */
export function retryDelays(config: WorkerConfig): number[] {
  return config.DELIVERY_RETRY_DELAYS_MS.split(',').map(Number);
}
