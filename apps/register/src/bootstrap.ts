import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { RegisterAppModule } from './app.module';
import type { RegisterConfig } from './config/register-config';
import { AdminRpcServerHandle, RpcServerHandle } from './rpc/rpc-server.handle';

/** Builds and starts the register; main.ts and the test harness both call this. */
export async function startRegister(config: RegisterConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    RegisterAppModule.forConfig(config),
    new FastifyAdapter(),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.connectMicroservice(
    { strategy: app.get(RpcServerHandle).server },
    { inheritAppConfig: true },
  );
  app.connectMicroservice(
    { strategy: app.get(AdminRpcServerHandle).server },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
  await app.listen(config.HEALTH_PORT, config.HOST);
  return app;
}
