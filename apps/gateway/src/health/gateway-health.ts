import { AmqpConnection } from '@custodian/messaging';
import { pingPostgres } from '@custodian/observability';
import { HttpStatus, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RedisConnection } from '../redis/redis.provider';

type Check = { status: 'up' | 'down'; message?: string };

export interface HealthReport {
  httpStatus: number;
  body: { status: 'ok' | 'degraded' | 'error'; details: Record<string, Check> };
}

/**
 * 200 `ok`; 200 `degraded` when only Redis is down (the gateway keeps serving: keys from
 * Postgres, limits not applied), so a load balancer keeps it in rotation; 503 `error` when
 * Postgres or RabbitMQ is down and requests would fail. Answered at /health on the public port
 * and on the health port alike.
 */
@Injectable()
export class GatewayHealth {
  constructor(
    private readonly db: DataSource,
    private readonly redis: RedisConnection,
    private readonly rabbitmq: AmqpConnection,
  ) {}

  async report(): Promise<HealthReport> {
    const notConnected: Check = { status: 'down', message: 'not connected' };
    const rabbitmq = this.rabbitmq.status();
    const checks = {
      postgres: await this.postgres(),
      redis: this.redis.isReady() ? { status: 'up' } : notConnected,
      rabbitmq: rabbitmq.up ? { status: 'up' } : { status: 'down', message: rabbitmq.message },
    } satisfies Record<string, Check>;
    const fatal = checks.postgres.status === 'down' || checks.rabbitmq.status === 'down';
    const status = fatal ? 'error' : checks.redis.status === 'down' ? 'degraded' : 'ok';
    return {
      httpStatus: fatal ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK,
      body: { status, details: checks },
    };
  }

  private async postgres(): Promise<Check> {
    const result = await pingPostgres(this.db);
    return result.up ? { status: 'up' } : { status: 'down', message: result.message };
  }
}
