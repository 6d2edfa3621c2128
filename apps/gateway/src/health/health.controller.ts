import { AmqpConnection } from '@custodian/messaging';
import { pingPostgres } from '@custodian/observability';
import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../access/public.decorator';
import { RedisConnection } from '../redis/redis.provider';

type Check = { status: 'up' | 'down'; message?: string };

/**
 * 200 `ok`; 200 `degraded` when only Redis is down (the gateway keeps serving: keys from
 * Postgres, limits not applied), so a load balancer keeps it in rotation; 503 `error` when
 * Postgres or RabbitMQ is down and requests would fail.
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly db: DataSource,
    private readonly redis: RedisConnection,
    private readonly rabbitmq: AmqpConnection,
  ) {}

  @Get()
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const notConnected: Check = { status: 'down', message: 'not connected' };
    const rabbitmq = this.rabbitmq.status();
    const checks = {
      postgres: await this.postgres(),
      redis: this.redis.isReady() ? { status: 'up' } : notConnected,
      rabbitmq: rabbitmq.up ? { status: 'up' } : { status: 'down', message: rabbitmq.message },
    } satisfies Record<string, Check>;
    const fatal = checks.postgres.status === 'down' || checks.rabbitmq.status === 'down';
    const status = fatal ? 'error' : checks.redis.status === 'down' ? 'degraded' : 'ok';
    void reply.status(fatal ? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.OK);
    return { status, details: checks };
  }

  private async postgres(): Promise<Check> {
    const result = await pingPostgres(this.db);
    return result.up ? { status: 'up' } : { status: 'down', message: result.message };
  }
}
