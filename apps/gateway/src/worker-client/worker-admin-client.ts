import type { ReplyOf, RequestOf, RpcContract } from '@custodian/contracts';
import { RpcClient, RpcPeer, type RequestIdentity } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';

/** The gateway's way to the webhook-worker's admin queue: the console's webhooks and log. */
@Injectable()
export class WorkerAdminClient extends RpcPeer {
  constructor(client: RpcClient, @Inject(GatewayConfig) config: GatewayConfig) {
    super(client, {
      queue: config.WORKER_ADMIN_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      serviceName: 'webhook-worker',
    });
  }

  /**
   * `identity` for a console write sent with an Idempotency-Key: the worker applies its
   * endpoint writes once per request id (AppliedWrites), so a retry gets the first answer.
   */
  call<C extends RpcContract>(
    contract: C,
    message: RequestOf<C>,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    return this.send(contract, message, undefined, identity);
  }
}
