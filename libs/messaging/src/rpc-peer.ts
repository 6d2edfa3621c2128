import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { RmqRpcClient, type RpcClientOptions } from './rpc-client';

/**
 * An app's Nest-managed link to another app's RPC queue: connects (or keeps retrying) when
 * the module starts and closes at shutdown. Subclasses add the calls they make.
 */
export abstract class RpcPeer implements OnModuleInit, OnApplicationShutdown {
  readonly rpc: RmqRpcClient;

  protected constructor(options: RpcClientOptions) {
    this.rpc = new RmqRpcClient(options);
  }

  onModuleInit(): Promise<void> {
    return this.rpc.connectOrRetry();
  }

  onApplicationShutdown(): Promise<void> {
    return this.rpc.close();
  }
}
