import { startAppMetrics } from '@custodian/observability';
import { DataSource } from 'typeorm';
import { startRpcServers } from '@custodian/messaging';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { WorkerAppModule } from './app.module';
import type { WorkerConfig } from './config/worker-config';

/**
 * The worker has no public HTTP: its Fastify listener serves only /health. Its admin work
 * (webhook endpoints, Test ping, delivery log) arrives on its admin queue.
 */
export async function startWorker(config: WorkerConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    WorkerAppModule.forConfig(config),
    new FastifyAdapter(),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  startAppMetrics('webhook-worker', app.get(DataSource));
  app.enableShutdownHooks();
  await startRpcServers(app);
  await app.listen(config.HEALTH_PORT, config.HOST);
  return app;
}
