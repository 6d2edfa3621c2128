import { RmqRpcServer } from '@custodian/messaging';
import { Injectable } from '@nestjs/common';
import { RegisterConfig } from '../config/register-config';

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
  }
}
