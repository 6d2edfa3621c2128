import { RmqRpcServer } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { WorkerConfig } from '../config/worker-config';

/** Transport id of the worker's admin server; its handlers name it in `@MessagePattern`. */
export const WORKER_ADMIN_TRANSPORT = Symbol('worker-admin');

/** The admin queue's server: webhook endpoints, Test ping and the delivery log. */
@Injectable()
export class AdminRpcServerHandle {
  readonly server: RmqRpcServer;

  constructor(@Inject(WorkerConfig) config: WorkerConfig) {
    this.server = new RmqRpcServer({
      url: config.RABBITMQ_URL,
      queue: config.WORKER_ADMIN_QUEUE,
      prefetch: 8,
      connectionName: 'custodian-webhook-worker-admin',
    });
    this.server.setTransportId(WORKER_ADMIN_TRANSPORT);
  }
}
