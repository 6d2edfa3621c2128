import {
  EVENTS_EXCHANGE,
  EXPORT_CHUNK_ROWS,
  REGISTER_ADMIN_QUEUE,
  REGISTER_RPC_QUEUE,
} from '@custodian/contracts';
import { loadConfig, relaxedDefaults } from '@custodian/config';
import { developmentSecretKeys, secretKeysProblem } from '@custodian/secret-cipher';
import { availableParallelism } from 'node:os';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  Matches,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';

/** The variable that holds the keys of the licences' product keys. */
export const LICENSE_KEY_SECRETS = 'LICENSE_KEY_SECRETS';

function licenseKeysProblem(value: unknown): string | null {
  return secretKeysProblem(value, LICENSE_KEY_SECRETS, relaxedDefaults());
}

export class RegisterConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/custodian';

  @Matches(/^amqps?:\/\//, { message: 'RABBITMQ_URL must be an amqp:// URL' })
  RABBITMQ_URL: string = 'amqp://guest:guest@127.0.0.1:5672';

  @IsString() REGISTER_QUEUE: string = REGISTER_RPC_QUEUE;

  /** Console work the register owns (invitations, owners), reached by the admin CLI. */
  @IsString() REGISTER_ADMIN_QUEUE: string = REGISTER_ADMIN_QUEUE;

  /** Invitation e-mails go to this SMTP server; unset, they are logged instead (development). */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString() MAIL_FROM: string = 'Custodian <no-reply@custodian.local>';

  /** Where the API is reached from outside; the invitation link starts with it. */
  @Matches(/^https?:\/\/[^/]+/, { message: 'PUBLIC_BASE_URL must be an http(s):// URL' })
  PUBLIC_BASE_URL: string = 'http://127.0.0.1:3000';

  @IsInt() @Min(1) @Max(1000) RPC_PREFETCH: number = 20;

  /**
   * Password checks and hashes (argon2id, 19 MiB and a few milliseconds of a core each) run at
   * most this many at a time per replica, on the admin queue's heavy lane.
   */
  @IsInt() @Min(1) @Max(64) PASSWORD_CONCURRENCY: number = 2;

  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /** Days the activity feed keeps an entry (its table is pruned every hour). */
  @IsInt() @Min(1) @Max(36_500) ACTIVITY_RETENTION_DAYS: number = 365;

  /** Days an accepted or expired invitation is kept (an open one always is). */
  @IsInt() @Min(1) @Max(36_500) INVITATION_RETENTION_DAYS: number = 30;
  /** Days a deleted asset stays in the bin, restorable, before it is purged; 0: for ever. */
  @IsInt() @Min(0) @Max(36_500) BIN_RETENTION_DAYS: number = 30;
  /**
   * The most any statement or lock wait on the pool may take (ms): less than the gateway waits
   * for an answer (REGISTER_TIMEOUT_MS, 4 s), so no statement outlives its caller. The API's
   * writes and lists are bound tighter, to what is left of their request's deadline; a fetch
   * taken with at least this much of it left relies on this bound (read-transactions.ts).
   */
  @IsInt() @Min(100) @Max(600_000) DATABASE_STATEMENT_TIMEOUT_MS: number = 3_000;

  /**
   * Lists and searches (the heavy reads) running at once. Over it others wait for a turn
   * while it can come in time and the rest are answered `overloaded` (503) at once, so they
   * never hold every connection while fetches and writes wait behind them. Unset:
   * heavyReadLimit() (half the pool, at most one per CPU core).
   */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  @ValidateBy({
    name: 'leavesRoomForCheapWork',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        heavyLimitProblem(args?.object as RegisterConfig) === null,
      defaultMessage: (args?: ValidationArguments) =>
        heavyLimitProblem(args?.object as RegisterConfig) ?? '',
    },
  })
  REGISTER_HEAVY_CONCURRENCY?: number;

  /**
   * Kept back from a request's deadline (ms) for the reply to reach the caller: a read's
   * statements are cancelled, and a write is rolled back, this long before the caller gives
   * up, so it hears "overloaded, nothing done" instead of timing out.
   */
  @IsInt() @Min(0) @Max(5_000) REGISTER_DEADLINE_MARGIN_MS: number = 100;

  /** The register speaks no public HTTP; this port serves only /health. */
  @IsInt() @Min(0) @Max(65535) HEALTH_PORT: number = 3001;

  @IsString() HOST: string = '0.0.0.0';

  /** Where this app's outbox rows are published (topic exchange, routing key = event). */
  @IsString() EVENTS_EXCHANGE: string = EVENTS_EXCHANGE;

  /**
   * Open (unaccepted, unexpired) invitations a workspace may have at once: each one is an
   * e-mail sent on a client's word, so this bounds what a key can make us send.
   */
  @IsInt() @Min(1) @Max(10_000) MAX_PENDING_INVITATIONS: number = 50;

  /**
   * How often the due-date engine (due-dates/due-date-engine.ts) claims the notices whose date
   * has passed: assignment.overdue, and every other dated notice, fires at most this late.
   * Named OVERDUE_SWEEP_MS before the engine; that name is still read when this one is unset.
   */
  @IsInt() @Min(50) @Max(3_600_000) DUE_DATES_SWEEP_MS: number = 5_000;

  /**
   * Imports' background jobs (imports/import-jobs.ts): how often they look for an import to
   * plan or apply that no kick reached (a crashed or restarted replica's), in ms.
   */
  @IsInt() @Min(50) @Max(600_000) IMPORT_JOBS_POLL_MS: number = 1_000;

  /** Days a finished import (and its rows, with their plans and results) is kept. */
  @IsInt() @Min(1) @Max(3_650) IMPORT_RETENTION_DAYS: number = 30;

  /** Rows an import's dry run plans per step (a few statements for the whole batch). */
  @IsInt() @Min(1) @Max(10_000) IMPORT_PLAN_BATCH_SIZE: number = 1_000;

  /**
   * Rows an import writes per step, one transaction: each holds the workspace's counters row
   * (a create) until the step commits, so a step stays short.
   */
  @IsInt() @Min(1) @Max(5_000) IMPORT_WRITE_BATCH_SIZE: number = 200;

  /** The most a statement of an import step may take (ms). */
  @IsInt() @Min(1_000) @Max(3_600_000) IMPORT_JOB_STATEMENT_TIMEOUT_MS: number = 300_000;

  /**
   * Audits' background jobs (audits/audit-jobs.ts): how often they look for an audit to start
   * or complete that no kick reached (a crashed or restarted replica's), in ms.
   */
  @IsInt() @Min(50) @Max(600_000) AUDIT_JOBS_POLL_MS: number = 1_000;

  /**
   * The bound on each statement of an audit job (ms), in place of the pool's
   * DATABASE_STATEMENT_TIMEOUT_MS (3 s, sized for requests): fixing the expected set of
   * 100,000 assets is one INSERT ... SELECT of a few seconds.
   */
  @IsInt() @Min(1_000) @Max(3_600_000) AUDIT_JOB_STATEMENT_TIMEOUT_MS: number = 300_000;

  /**
   * Rows per chunk of a CSV export (the contract's EXPORT_CHUNK_ROWS by default): what the
   * register reads, and the gateway holds, of an export at once. Tests set it low to walk
   * many chunks with few rows.
   */
  @IsInt() @Min(1) @Max(50_000) EXPORT_CHUNK_ROWS: number = EXPORT_CHUNK_ROWS;

  /** Items a completion settles per transaction (one `audit.item_missing` each at most). */
  @IsInt() @Min(1) @Max(10_000) AUDIT_BATCH_SIZE: number = 1_000;

  /**
   * The same when the completion moves found assets or marks missing ones lost: each such
   * write holds the workspace's counters row until its batch commits, so batches are smaller.
   */
  @IsInt() @Min(1) @Max(10_000) AUDIT_WRITE_BATCH_SIZE: number = 100;

  /**
   * `on` lets the admin queue run the due-date engine at a time it names
   * (`admin.overdue.sweep`), so end-to-end tests see a due date pass without waiting for it.
   * Never on in production: a time ahead of now would fire assignment.overdue early.
   */
  @IsIn(['on', 'off']) OVERDUE_TEST_CLOCK: 'on' | 'off' = 'off';

  /**
   * `on`: a commit that writes outbox rows wakes the relay at once (LISTEN/NOTIFY, one more
   * Postgres connection per replica). `off` behind a pooler in transaction mode (PgBouncer),
   * which cannot keep a LISTEN; then set OUTBOX_POLL_MS to 100 or so.
   */
  @IsIn(['on', 'off']) OUTBOX_LISTEN: 'on' | 'off' = 'on';

  /**
   * How often the outbox relay looks for unpublished rows while none are coming. With
   * OUTBOX_LISTEN on it is the safety net (listener reconnecting, broker back after an outage).
   */
  @IsInt() @Min(10) @Max(60_000) OUTBOX_POLL_MS: number = 1_000;

  /** Hours a published outbox row is kept (to look back at what was sent) before pruning. */
  @IsInt() @Min(1) @Max(8_760) OUTBOX_RETENTION_HOURS: number = 72;

  /**
   * Keys that encrypt licences' product keys at rest (libs/secret-cipher): `id:base64key,...`,
   * 32-byte keys, the first encrypting, each decrypting what it encrypted. Required, and the
   * development key refused, unless NODE_ENV is development or test (then it is the default,
   * public, protecting nothing), as WEBHOOK_SECRET_KEYS is for the worker.
   */
  @ValidateBy({
    name: 'isSecretKeyList',
    validator: {
      validate: (value: unknown) => licenseKeysProblem(value) === null,
      defaultMessage: (args) => licenseKeysProblem(args?.value) ?? '',
    },
  })
  LICENSE_KEY_SECRETS: string = relaxedDefaults() ? developmentSecretKeys(LICENSE_KEY_SECRETS) : '';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: string = 'info';

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

export function loadRegisterConfig(env: NodeJS.ProcessEnv = process.env): RegisterConfig {
  return loadConfig(RegisterConfig, withRenamed(env));
}

/**
 * OVERDUE_SWEEP_MS became DUE_DATES_SWEEP_MS when the overdue sweep became the due-date engine
 * (ADR 0020). Unknown variables are ignored, so an environment that still sets the old name
 * would silently lose its interval; it is read as the new one unless that is set too.
 */
function withRenamed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.DUE_DATES_SWEEP_MS !== undefined && env.DUE_DATES_SWEEP_MS !== '') return env;
  if (env.OVERDUE_SWEEP_MS === undefined) return env;
  return { ...env, DUE_DATES_SWEEP_MS: env.OVERDUE_SWEEP_MS };
}

/**
 * How many heavy reads run at once: REGISTER_HEAVY_CONCURRENCY, else half the pool, and no
 * more than `cores` (this machine's: the database's too, as the project runs it). A search
 * keeps a core of Postgres busy; more of them at once than there are cores finish no sooner
 * and slow whatever runs beside them (ADR 0015: on two cores, five at once more than doubled
 * a fetch's p99 for the same searches a second). The default also stays under half of
 * RPC_PREFETCH, the prefetch of the lane lists come on, so that at least as many may wait for
 * a turn as run (read-transactions.ts).
 */
export function heavyReadLimit(
  config: RegisterConfig,
  cores: number = availableParallelism(),
): number {
  if (config.REGISTER_HEAVY_CONCURRENCY !== undefined) return config.REGISTER_HEAVY_CONCURRENCY;
  const half = Math.floor(config.DATABASE_POOL_SIZE / 2);
  return Math.max(1, Math.min(half, cores, Math.floor((config.RPC_PREFETCH - 1) / 2)));
}

/** Why a REGISTER_HEAVY_CONCURRENCY given would starve fetches, writes or its line, if so. */
function heavyLimitProblem(config: RegisterConfig): string | null {
  const heavy = config.REGISTER_HEAVY_CONCURRENCY;
  if (heavy === undefined) return null;
  const pool = config.DATABASE_POOL_SIZE;
  if (heavy > Math.max(1, pool - 1)) {
    return `REGISTER_HEAVY_CONCURRENCY must be less than DATABASE_POOL_SIZE (${pool}), so fetches and writes keep a connection`;
  }
  if (2 * heavy >= config.RPC_PREFETCH) {
    return `REGISTER_HEAVY_CONCURRENCY must be less than half of RPC_PREFETCH (${config.RPC_PREFETCH}), the prefetch of the lane lists come on: at least as many must be able to wait for a turn as run`;
  }
  return null;
}
