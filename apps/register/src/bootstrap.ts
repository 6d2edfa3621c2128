import { startAppMetrics } from '@custodian/observability';
import { DataSource } from 'typeorm';
import { startRpcServers } from '@custodian/messaging';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { RegisterAppModule } from './app.module';
import type { RegisterConfig } from './config/register-config';

/** Builds and starts the register; main.ts and the test harness both call this. */
export async function startRegister(config: RegisterConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    RegisterAppModule.forConfig(config),
    new FastifyAdapter(),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  startAppMetrics('register', app.get(DataSource));
  app.enableShutdownHooks();
  await startRpcServers(app);
  await app.listen(config.HEALTH_PORT, config.HOST);
  return app;
}
