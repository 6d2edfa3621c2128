import {
  EVENTS_EXCHANGE,
  GATEWAY_ADMIN_QUEUE,
  REGISTER_ADMIN_QUEUE,
  WORKER_ADMIN_QUEUE,
  REGISTER_RPC_QUEUE,
} from '@custodian/contracts';
import { loadConfig } from '@custodian/config';
import { IsIn, IsInt, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';
import { isIP } from 'node:net';

export class GatewayConfig {
  @IsInt() @Min(0) @Max(65535) PORT: number = 3000;

  /**
   * The health port: /health, /health/live and /metrics, for the orchestrator and Prometheus
   * only (never publish it). 0 picks a free port.
   */
  @IsInt() @Min(0) @Max(65535) HEALTH_PORT: number = 3003;

  @IsString() HOST: string = '0.0.0.0';

  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/custodian';

  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  /** Namespaces every Redis key, so several deployments (or test runs) can share a server. */
  @IsString() REDIS_PREFIX: string = 'cus:';

  /**
   * How long a Redis command may take before the gateway stops waiting and serves the request
   * with limits not applied (fail open). Well under the 200 ms in which a request must still be
   * answered with Redis gone.
   */
  @IsInt() @Min(10) @Max(10_000) REDIS_COMMAND_TIMEOUT_MS: number = 100;

  @Matches(/^amqps?:\/\//, { message: 'RABBITMQ_URL must be an amqp:// URL' })
  RABBITMQ_URL: string = 'amqp://guest:guest@127.0.0.1:5672';

  @IsString() REGISTER_QUEUE: string = REGISTER_RPC_QUEUE;

  @IsString() ADMIN_QUEUE: string = GATEWAY_ADMIN_QUEUE;

  /** The register's admin queue: invitation acceptance and workspace owners. */
  @IsString() REGISTER_ADMIN_QUEUE: string = REGISTER_ADMIN_QUEUE;

  /** The webhook-worker's admin queue: the console's webhooks and delivery log. */
  @IsString() WORKER_ADMIN_QUEUE: string = WORKER_ADMIN_QUEUE;

  /** Every call to the register gives up after this; the client gets a 504 body. */
  @IsInt() @Min(100) @Max(30_000) REGISTER_TIMEOUT_MS: number = 4_000;

  /**
   * Memory for the last bytes of unpaged lists (GET /assets, /people without `page`), kept with
   * the tag the register gave them and answered again while the register says they are current
   * (register-client/unpaged-lists.ts); 0 keeps none.
   */
  @IsInt() @Min(0) @Max(4_096) UNPAGED_CACHE_MB: number = 32;

  /** How long a resolved key stays cached in Redis; revocation and plan changes rewrite it. */
  @IsInt() @Min(1) @Max(86_400) KEY_CACHE_TTL_SECONDS: number = 300;

  /** How often a gateway retries key-cache rewrites that failed while Redis was down. */
  @IsInt() @Min(10) @Max(600_000) CACHE_REPAIR_INTERVAL_MS: number = 5_000;

  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /** Days the activity feed keeps an entry (its table is pruned every hour). */
  @IsInt() @Min(1) @Max(36_500) ACTIVITY_RETENTION_DAYS: number = 365;

  /**
   * The most any statement of the serving pool, and any wait for a lock, may take (ms; the
   * migrations take as long as they need): a statement stuck behind a lock, or one nobody
   * waits for any more, is cancelled rather than left holding a connection of the pool;
   * the gateway's own statements are small (a key, a workspace, a usage flush, an outbox batch): ten seconds is far past any of them.
   */
  @IsInt() @Min(100) @Max(600_000) DATABASE_STATEMENT_TIMEOUT_MS: number = 10_000;

  /** Failed authentications allowed per client address and minute (brute-force guard). */
  @IsInt() @Min(1) @Max(1_000_000) UNAUTHENTICATED_RATE_PER_MINUTE: number = 60;

  /**
   * How often monthly usage counts go from Redis to Postgres, and how long a count Redis lost
   * may wait for the gateway that saw it to put it back when no request asks for it first.
   */
  @IsInt() @Min(10) @Max(60_000) USAGE_FLUSH_INTERVAL_MS: number = 2_000;

  /**
   * Which hops in front of the gateway may name the client address in X-Forwarded-For:
   * `false` (none: the socket's address), a hop count (`1`: the nearest hop only) or a comma
   * list of the proxies' addresses/CIDRs. Never every hop: the leftmost entries are whatever
   * the client wrote, so it could pick its address and escape the brute-force guard.
   */
  @ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && trustProxyProblem(value) === null,
      defaultMessage: (args) => trustProxyProblem(String(args?.value)) ?? '',
    },
  })
  TRUST_PROXY: string = 'false';

  /** Where this app's outbox rows are published (topic exchange, routing key = event). */
  @IsString() EVENTS_EXCHANGE: string = EVENTS_EXCHANGE;

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

  /** Where the console's built files are (`npm run build` writes dist/apps/console). */
  @IsString() CONSOLE_DIR: string = 'dist/apps/console';

  /** A console session ends after this long without a request... */
  @IsInt() @Min(1) @Max(43_200) SESSION_IDLE_MINUTES: number = 720;

  /** ...and this long after sign-in, however active. */
  @IsInt() @Min(1) @Max(8_760) SESSION_MAX_HOURS: number = 168;

  /**
   * Whether the session cookie is `Secure` (sent only over HTTPS). `auto`: everywhere but
   * NODE_ENV development and test, where the console is opened over plain http on a laptop.
   */
  @IsIn(['auto', 'true', 'false']) COOKIE_SECURE: 'auto' | 'true' | 'false' = 'auto';

  /** Failed password sign-ins per account per 15 minutes before 429. */
  @IsInt() @Min(1) @Max(1_000) SIGN_IN_FAILURES_PER_ACCOUNT: number = 10;

  /** Sign-in links mailed per account per 15 minutes before 429. */
  @IsInt() @Min(1) @Max(1_000) SIGN_IN_LINKS_PER_ACCOUNT: number = 5;

  /** Sign-in links asked from one client address per 15 minutes, whatever e-mails, before 429. */
  @IsInt() @Min(1) @Max(100_000) SIGN_IN_LINKS_PER_ADDRESS: number = 20;

  /**
   * Console writes (POST, PUT, PATCH, DELETE) a minute per session, and per workspace (all its
   * members together), before 429: a person clicking never comes near them; a script driving
   * a session, or a stolen one, does.
   */
  @IsInt() @Min(1) @Max(100_000) CONSOLE_WRITES_PER_MINUTE: number = 120;
  @IsInt() @Min(1) @Max(100_000) CONSOLE_WORKSPACE_WRITES_PER_MINUTE: number = 600;

  /**
   * How recent a console sign-in must be to create an API key or show or rotate a signing
   * secret (older: the password again). Seconds, so that a test need not wait 15 minutes.
   */
  @IsInt() @Min(1) @Max(86_400) RECENT_SIGN_IN_SECONDS: number = 900;

  /** Test pings a minute per endpoint, and resends a minute per delivery. */
  @IsInt() @Min(1) @Max(10_000) CONSOLE_PINGS_PER_MINUTE: number = 10;

  /**
   * Fetches a minute of one calendar feed URL before 429: calendar apps poll every few minutes
   * at most; more is a script, or a leaked URL.
   */
  @IsInt() @Min(1) @Max(10_000) CALENDAR_FEED_FETCHES_PER_MINUTE: number = 10;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: string = 'info';

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(GatewayConfig, env);
}

/** More hops than any real chain of CDN, balancer, ingress and sidecar. */
const MAX_TRUSTED_HOPS = 20;

/**
 * Fastify's `trustProxy` for TRUST_PROXY (validated): false, the number of hops to trust, or
 * the addresses/CIDRs of the proxies.
 */
export function trustedProxies(config: GatewayConfig): false | number | string[] {
  const value = config.TRUST_PROXY.trim();
  if (value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((entry) => entry.trim());
}

/** Why a TRUST_PROXY value is refused, or null when it is valid. */
function trustProxyProblem(raw: string): string | null {
  const value = raw.trim();
  if (value === 'true') {
    return (
      'TRUST_PROXY=true would trust every hop, so any client could pick its own address ' +
      'with X-Forwarded-For; set the number of proxies in front of the gateway (e.g. 1) or ' +
      'their addresses/CIDRs (e.g. 10.0.0.0/8)'
    );
  }
  if (value === 'false') return null;
  let bad: string | undefined;
  if (/^\d+$/.test(value)) {
    if (Number(value) > MAX_TRUSTED_HOPS) bad = value;
  } else {
    bad = value
      .split(',')
      .map((entry) => entry.trim())
      .find((entry) => !isAddressOrCidr(entry));
  }
  if (bad === undefined) return null;
  return (
    `TRUST_PROXY must be false, a hop count (1 to ${MAX_TRUSTED_HOPS}) or a comma list of ` +
    `proxy addresses/CIDRs; "${bad}" is neither`
  );
}

/**
 * What Fastify's proxy-addr accepts, in standard notation only (no `10.1` or hex forms), and
 * no /0, which would trust everyone as `true` does.
 */
function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  const family = isIP(slash === -1 ? entry : entry.slice(0, slash));
  if (family === 0) return false;
  if (slash === -1) return true;
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128);
}
