import 'reflect-metadata';
import { RmqRpcServer } from '@custodian/messaging';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { DEFAULT_PREFETCH, RPC_ENV, requiredEnv, signalReady } from './rpc-processes';
import { RABBITMQ_URL } from './processes';
import { RPC_PATTERN, answerAsset } from './rpc-workload';

const HANDLER_MS = Number(process.env[RPC_ENV.handlerMs] ?? 0);

@Controller()
class AssetsRpcController {
  @MessagePattern(RPC_PATTERN)
  get(): ReturnType<typeof answerAsset> {
    return answerAsset(HANDLER_MS);
  }
}

@Module({ controllers: [AssetsRpcController] })
class BenchRpcModule {}

/**
 * The bench's RPC server on libs/messaging, wired as the register wires it: a Nest
 * microservice whose strategy is RmqRpcServer (here on a connection of its own).
 */
async function main(): Promise<void> {
  const server = new RmqRpcServer(
    { url: RABBITMQ_URL, name: 'custodian-bench-rpc-server' },
    {
      queue: requiredEnv(RPC_ENV.queue),
      prefetch: Number(process.env[RPC_ENV.prefetch] ?? DEFAULT_PREFETCH),
    },
  );
  const app = await NestFactory.createMicroservice(BenchRpcModule, {
    strategy: server,
    logger: ['warn', 'error'],
  });
  app.enableShutdownHooks();
  await app.listen();
  signalReady();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
