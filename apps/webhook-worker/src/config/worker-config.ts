import { EVENTS_EXCHANGE } from '@custodian/contracts';
import { loadConfig } from '@custodian/runtime';
import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';

export class WorkerConfig {
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/custodian';

  @Matches(/^amqps?:\/\//, { message: 'RABBITMQ_URL must be an amqp:// URL' })
  RABBITMQ_URL: string = 'amqp://guest:guest@127.0.0.1:5672';

  @IsString() EVENTS_EXCHANGE: string = EVENTS_EXCHANGE;

  @IsString() EVENTS_QUEUE: string = 'custodian.webhook-worker.events';

  /** The worker speaks no public HTTP; this port serves only /health. */
  @IsInt() @Min(0) @Max(65535) HEALTH_PORT: number = 3002;

  @IsString() HOST: string = '0.0.0.0';

  @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE: number = 10;

  /**
   * Whether webhook targets on loopback or private networks are allowed. Off in production;
   * on by default elsewhere (npm start, tests) so a local receiver works.
   */
  @IsIn(['true', 'false'])
  WEBHOOK_ALLOW_PRIVATE_TARGETS: string = process.env.NODE_ENV === 'production' ? 'false' : 'true';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL: string = 'info';

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  return loadConfig(WorkerConfig, env);
}
