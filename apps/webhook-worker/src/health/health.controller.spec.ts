import { ServiceUnavailableException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TerminusModule } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AdminRpcServerHandle } from '../admin/admin-rpc-server.handle';
import { EventConsumer } from '../events/event-consumer';
import { HealthController } from './health.controller';

describe('worker /health', () => {
  async function controller(links: { events: boolean; admin: boolean }) {
    const module = await Test.createTestingModule({
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: [
        { provide: DataSource, useValue: { query: () => Promise.resolve([{ '?column?': 1 }]) } },
        { provide: EventConsumer, useValue: { isConnected: () => links.events } },
        {
          provide: AdminRpcServerHandle,
          useValue: { server: { isConnected: () => links.admin } },
        },
      ],
    }).compile();
    return module.get(HealthController);
  }

  it('reports Postgres, the events consumer and the admin queue when all are up', async () => {
    const health = await controller({ events: true, admin: true });
    await expect(health.check()).resolves.toMatchObject({
      status: 'ok',
      details: {
        postgres: { status: 'up' },
        rabbitmq: { status: 'up' },
        rabbitmq_admin: { status: 'up' },
      },
    });
  });

  it('is 503 naming the admin queue when only its link is down', async () => {
    const health = await controller({ events: true, admin: false });
    const failure = await health.check().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServiceUnavailableException);
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: { rabbitmq_admin: { status: 'down', message: 'not connected' } },
      details: { rabbitmq: { status: 'up' } },
    });
  });

  it('is 503 naming the events consumer when its link is down', async () => {
    const health = await controller({ events: false, admin: true });
    const failure = await health.check().then(
      () => null,
      (error: unknown) => error,
    );
    expect((failure as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      error: { rabbitmq: { status: 'down' } },
      details: { rabbitmq_admin: { status: 'up' } },
    });
  });
});
