import type { ReplyOf, RequestOf, RpcContract } from '@custodian/contracts';
import { RpcClient, RpcPeer } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';

/**
 * The gateway's way to the register's admin queue: work with no API key behind it (the
 * public invitation link) or that the gateway's own admin work needs (a new workspace's owner).
 */
@Injectable()
export class RegisterAdminClient extends RpcPeer {
  constructor(client: RpcClient, @Inject(GatewayConfig) config: GatewayConfig) {
    super(client, {
      queue: config.REGISTER_ADMIN_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      serviceName: 'register',
    });
  }

  /** A message of the register's admin queue (RegisterAdminRpc). */
  call<C extends RpcContract>(contract: C, message: RequestOf<C>): Promise<ReplyOf<C>> {
    return this.send(contract, message);
  }
}
