import { RmqRpcServer } from '@custodian/messaging';
import { Injectable } from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';

/**
 * Transport ids of the register's two servers. A handler declared with
 * `@MessagePattern(pattern, REGISTER_ADMIN_TRANSPORT)` is served on the admin queue only; one
 * without a transport on both. Without ids Nest would serve admin patterns on the API queue.
 */
export const REGISTER_RPC_TRANSPORT = Symbol('register-rpc');
export const REGISTER_ADMIN_TRANSPORT = Symbol('register-admin');

/** The transport instance, injectable so that health checks can ask about its connection. */
@Injectable()
export class RpcServerHandle {
  readonly server: RmqRpcServer;

  constructor(config: RegisterConfig) {
    this.server = new RmqRpcServer({
      url: config.RABBITMQ_URL,
      queue: config.REGISTER_QUEUE,
      prefetch: config.RPC_PREFETCH,
      connectionName: 'custodian-register',
    });
    this.server.setTransportId(REGISTER_RPC_TRANSPORT);
  }
}

/** The admin queue's server: console work the register owns, reached by the admin CLI. */
@Injectable()
export class AdminRpcServerHandle {
  readonly server: RmqRpcServer;

  constructor(config: RegisterConfig) {
    this.server = new RmqRpcServer({
      url: config.RABBITMQ_URL,
      queue: config.REGISTER_ADMIN_QUEUE,
      prefetch: 8,
      connectionName: 'custodian-register-admin',
    });
    this.server.setTransportId(REGISTER_ADMIN_TRANSPORT);
  }
}
