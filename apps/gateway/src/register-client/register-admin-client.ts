import { heavyLaneOf, type ReplyOf, type RequestOf, type RpcContract } from '@custodian/contracts';
import { RpcClient, RpcPeer, type RequestIdentity, type RpcTarget } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { GatewayConfig } from '../config/gateway-config';

/**
 * The gateway's way to the register's admin queue: work with no API key behind it (the
 * public invitation link) or that the gateway's own admin work needs (a new workspace's owner).
 */
@Injectable()
export class RegisterAdminClient extends RpcPeer {
  /** The queue's heavy lane: password checks and hashes (RpcContract.heavy). */
  private readonly heavyLane: RpcTarget;

  constructor(client: RpcClient, @Inject(GatewayConfig) config: GatewayConfig) {
    super(client, {
      queue: config.REGISTER_ADMIN_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      serviceName: 'register',
    });
    this.heavyLane = { ...this.target, queue: heavyLaneOf(config.REGISTER_ADMIN_QUEUE) };
    client.addTarget(this.heavyLane.queue);
  }

  /**
   * A message of the register's admin queue (RegisterAdminRpc); a heavy one (a password)
   * goes on its lane, which the register serves a few at a time.
   */
  /**
   * `identity` for a console write sent with an Idempotency-Key: the register's member writes
   * are applied once per request id (WriteTransactions).
   */
  call<C extends RpcContract>(
    contract: C,
    message: RequestOf<C>,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    if (!contract.heavy) return this.send(contract, message, undefined, identity);
    const lane = this.heavyLane;
    return this.client.request(lane, contract.pattern, message, lane.timeoutMs, identity);
  }
}
