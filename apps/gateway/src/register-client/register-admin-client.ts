import type { RegisterAdminPattern } from '@custodian/contracts';
import { RmqRpcClient } from '@custodian/messaging';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';

/**
 * The gateway's way to the register's admin queue: work with no API key behind it (the
 * public invitation link) or that the gateway's own admin work needs (a new workspace's owner).
 */
@Injectable()
export class RegisterAdminClient implements OnModuleInit, OnApplicationShutdown {
  readonly rpc: RmqRpcClient;

  constructor(@Inject(GatewayConfig) config: GatewayConfig) {
    this.rpc = new RmqRpcClient({
      url: config.RABBITMQ_URL,
      queue: config.REGISTER_ADMIN_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      connectionName: 'custodian-gateway-to-register-admin',
      serviceName: 'register',
    });
  }

  async onModuleInit(): Promise<void> {
    await this.rpc.connectOrRetry();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }

  call<T>(pattern: RegisterAdminPattern, payload: object): Promise<T> {
    return this.rpc.request<T>(pattern, payload);
  }
}
