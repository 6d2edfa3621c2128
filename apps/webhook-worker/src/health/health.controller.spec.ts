import { ServiceUnavailableException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TerminusModule } from '@nestjs/terminus';
import { AmqpConnection } from '@custodian/messaging';
import { DataSource } from 'typeorm';
import { DeadLetterWatch } from '../events/dead-letter-watch';
import { HealthController } from './health.controller';

describe('worker /health', () => {
  async function controller(rabbitmq: ReturnType<AmqpConnection['status']>) {
    const module = await Test.createTestingModule({
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [
        { provide: DataSource, useValue: { query: () => Promise.resolve([{ '?column?': 1 }]) } },
        { provide: AmqpConnection, useValue: { status: () => rabbitmq } },
        { provide: DeadLetterWatch, useValue: { count: 3 } },
      ],
    }).compile();
    return module.get(HealthController);
  }

  it('reports Postgres and RabbitMQ when both are up', async () => {
    const health = await controller({ up: true });
    await expect(health.check()).resolves.toMatchObject({
      status: 'ok',
      details: {
        postgres: { status: 'up' },
        rabbitmq: { status: 'up' },
        dead_letters: { status: 'up', count: 3 },
      },
    });
  });

  it('is 503 naming the channel that is down (the admin queue, the events consumer)', async () => {
    const health = await controller({
      up: false,
      message: 'channel custodian.webhook-worker.admin is closed',
    });
    const failure = await health.check().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: {
        rabbitmq: { status: 'down', message: 'channel custodian.webhook-worker.admin is closed' },
      },
      details: { postgres: { status: 'up' } },
    });
  });

  it('is 503 when the connection itself is down', async () => {
    const health = await controller({ up: false, message: 'not connected' });
    const failure = await health.check().then(
      () => null,
      (error: unknown) => error,
    );
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: { rabbitmq: { status: 'down', message: 'not connected' } },
    });
  });
});
