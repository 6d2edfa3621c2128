import 'reflect-metadata';
import { RabbitMQModule, RabbitRPC } from '@golevelup/nestjs-rabbitmq';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DEFAULT_PREFETCH, RPC_ENV, requiredEnv, signalReady } from './rpc-processes';
import { RABBITMQ_URL } from './processes';
import { RPC_PATTERN, answerAsset } from './rpc-workload';

const HANDLER_MS = Number(process.env[RPC_ENV.handlerMs] ?? 0);
const EXCHANGE = requiredEnv(RPC_ENV.exchange);

@Injectable()
class AssetsRpc {
  /** Bound to its exchange, routing key and queue by the `handlers` entry of the same name. */
  @RabbitRPC({ name: RPC_PATTERN })
  get(): ReturnType<typeof answerAsset> {
    return answerAsset(HANDLER_MS);
  }
}

/**
 * The same server on @golevelup/nestjs-rabbitmq, configured as we would run the register on
 * it: one queue with the register's prefetch, patterns as routing keys on a direct exchange,
 * Nagle off on the socket.
 */
@Module({
  imports: [
    RabbitMQModule.forRoot({
      uri: RABBITMQ_URL,
      prefetchCount: Number(process.env[RPC_ENV.prefetch] ?? DEFAULT_PREFETCH),
      connectionManagerOptions: {
        connectionOptions: {
          noDelay: true,
          clientProperties: { connection_name: 'custodian-bench-rpc-server-golevelup' },
        },
      },
      connectionInitOptions: { wait: true, timeout: 10_000 },
      exchanges: [{ name: EXCHANGE, type: 'direct' }],
      handlers: {
        [RPC_PATTERN]: {
          exchange: EXCHANGE,
          routingKey: RPC_PATTERN,
          queue: requiredEnv(RPC_ENV.queue),
          queueOptions: { durable: true },
        },
      },
    }),
  ],
  providers: [AssetsRpc],
})
class BenchRpcModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(BenchRpcModule, {
    logger: ['warn', 'error'],
  });
  app.enableShutdownHooks();
  await app.init();
  signalReady();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
