import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type INestApplication,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { AmqpConnection } from './amqp-connection';
import { RpcClient } from './rpc-client';
import { RmqRpcServer, type RpcServerOptions } from './rpc-server';

export interface MessagingOptions {
  url: string;
  /** The app's connection name in RabbitMQ: `custodian-register`. */
  connectionName: string;
  /** The RPC queues this app serves, one server each. */
  servers?: RpcServerOptions[];
}

/** The app's RPC servers, for startRpcServers(). */
export class RpcServers {
  constructor(readonly all: readonly RmqRpcServer[]) {}
}

const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

/**
 * RabbitMQ for an app, wired the same way in all three: one connection (AmqpConnection, which
 * consumers and the outbox relay add their channels to), one RpcClient for the queues the app
 * calls (its RpcPeer subclasses), and one RmqRpcServer per queue it serves. The connection
 * opens when the module starts (the app fails to start without a broker) and closes last.
 */
@Module({})
export class MessagingModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(AmqpConnection) private readonly connection: AmqpConnection,
    @Inject(RpcClient) private readonly client: RpcClient,
  ) {}

  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        {
          provide: AmqpConnection,
          inject: [MESSAGING_OPTIONS],
          useFactory: ({ url, connectionName }: MessagingOptions) => {
            const logger = new Logger('RabbitMQ');
            return new AmqpConnection({
              url,
              name: connectionName,
              log: (message) => logger.warn(message),
            });
          },
        },
        {
          provide: RpcClient,
          inject: [AmqpConnection],
          useFactory: (connection: AmqpConnection) => new RpcClient(connection),
        },
        {
          provide: RpcServers,
          inject: [AmqpConnection, MESSAGING_OPTIONS],
          useFactory: (connection: AmqpConnection, { servers = [] }: MessagingOptions) =>
            new RpcServers(servers.map((server) => new RmqRpcServer(connection, server))),
        },
      ],
      exports: [AmqpConnection, RpcClient, RpcServers],
    };
  }

  async onModuleInit(): Promise<void> {
    await this.client.start();
    await this.connection.openWhenReachable();
  }

  /** After the servers (closed with the app) and consumers have drained. */
  async onApplicationShutdown(): Promise<void> {
    await this.client.stop();
    await this.connection.close();
  }
}

/** Connects the app's RPC servers as Nest microservices and starts them consuming. */
export async function startRpcServers(app: INestApplication): Promise<void> {
  for (const server of app.get(RpcServers).all) {
    app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  }
  await app.startAllMicroservices();
}

/** `rabbitmq` up when the connection and every channel on it are; else down, naming which. */
export function messagingHealth(
  indicators: HealthIndicatorService,
  connection: AmqpConnection,
  key = 'rabbitmq',
): HealthIndicatorResult {
  const check = indicators.check(key);
  const status = connection.status();
  return status.up ? check.up() : check.down({ message: status.message });
}
