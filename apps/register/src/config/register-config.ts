import {
  EVENTS_EXCHANGE,
  GATEWAY_ADMIN_QUEUE,
  REGISTER_ADMIN_QUEUE,
  REGISTER_RPC_QUEUE,
} from '@custodian/contracts';
import { loadConfig } from '@custodian/config';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, Matches } from 'class-validator';

export class RegisterConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/custodian';

  @Matches(/^amqps?:\/\//, { message: 'RABBITMQ_URL must be an amqp:// URL' })
  RABBITMQ_URL: string = 'amqp://guest:guest@127.0.0.1:5672';

  @IsString() REGISTER_QUEUE: string = REGISTER_RPC_QUEUE;

  /** Console work the register owns (invitations, owners), reached by the admin CLI. */
  @IsString() REGISTER_ADMIN_QUEUE: string = REGISTER_ADMIN_QUEUE;

  /** The gateway's admin queue: the register asks it for a workspace's plan and limits. */
  @IsString() GATEWAY_ADMIN_QUEUE: string = GATEWAY_ADMIN_QUEUE;

  @IsInt() @Min(100) @Max(30_000) GATEWAY_TIMEOUT_MS: number = 3_000;

  /** Invitation e-mails go to this SMTP server; unset, they are logged instead (development). */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString() MAIL_FROM: string = 'Custodian <no-reply@custodian.local>';

  /** Where the API is reached from outside; the invitation link starts with it. */
  @Matches(/^https?:\/\/[^/]+/, { message: 'PUBLIC_BASE_URL must be an http(s):// URL' })
  PUBLIC_BASE_URL: string = 'http://127.0.0.1:3000';

  @IsInt() @Min(1) @Max(1000) RPC_PREFETCH: number = 20;

  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;
  /**
   * The most a statement or a lock wait may take (ms): no longer than the gateway waits for an
   * answer (REGISTER_TIMEOUT_MS, 4 s), plus a margin. Writes are bound tighter, to what is left
   * of their request's own deadline.
   */
  @IsInt() @Min(100) @Max(600_000) DATABASE_STATEMENT_TIMEOUT_MS: number = 5_000;

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

  /** How often the outbox relay looks for unpublished rows. */
  @IsInt() @Min(10) @Max(60_000) OUTBOX_POLL_MS: number = 100;

  /** Hours a published outbox row is kept (to look back at what was sent) before pruning. */
  @IsInt() @Min(1) @Max(8_760) OUTBOX_RETENTION_HOURS: number = 72;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: string = 'info';

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

export function loadRegisterConfig(env: NodeJS.ProcessEnv = process.env): RegisterConfig {
  return loadConfig(RegisterConfig, env);
}
