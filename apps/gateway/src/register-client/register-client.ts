import {
  DomainError,
  heavyLaneOf,
  type CallerContext,
  type CallerMessage,
  type ReplyOf,
  type RequestOf,
  type RpcContract,
} from '@custodian/contracts';
import { RpcClient, RpcPeer, type RequestIdentity, type RpcTarget } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { GatewayConfig } from '../config/gateway-config';

/** The gateway's one way to the register: every call carries the caller and a timeout. */
@Injectable()
export class RegisterClient extends RpcPeer {
  /** The queue's heavy lane: lists and searches (RpcContract.heavy). */
  private readonly heavyLane: RpcTarget;

  constructor(client: RpcClient, @Inject(GatewayConfig) config: GatewayConfig) {
    super(client, {
      queue: config.REGISTER_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      serviceName: 'register',
      // The register applies each request once (its writes store the request id): a request
      // whose reply was lost with the connection is asked again, not failed as ambiguous.
      resendAfterReconnect: true,
    });
    this.heavyLane = { ...this.target, queue: heavyLaneOf(config.REGISTER_QUEUE) };
    client.addTarget(this.heavyLane.queue);
  }

  /**
   * A message of the register's API queue (RegisterRpc), sent as the key's caller; `identity`
   * when the client gave an Idempotency-Key (http/idempotency-key.ts).
   *
   * A read that timed out (no answer in time, or one the register says came too late) is
   * `overloaded`: 503 with Retry-After, since asking again is harmless. A write's timeout stays
   * a 504: it may have committed, and only its Idempotency-Key can tell.
   */
  call<C extends RpcContract<CallerMessage>>(
    contract: C,
    access: AccessRecord,
    message: Omit<RequestOf<C>, 'caller'>,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    return this.callAs(contract, callerOf(access), message, identity);
  }

  /**
   * The same message with the caller given as it is: the console's, which acts for a signed-in
   * member rather than an API key (console/register/console-register.ts).
   */
  async callAs<C extends RpcContract<CallerMessage>>(
    contract: C,
    caller: CallerContext,
    message: Omit<RequestOf<C>, 'caller'>,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    // Omit<R, 'caller'> plus the caller is R; the compiler cannot see it through the generic.
    const full = { ...message, caller } as RequestOf<C>;
    try {
      if (!contract.heavy) return await this.send(contract, full, contract.timeoutMs, identity);
      const lane = this.heavyLane;
      const timeoutMs = contract.timeoutMs ?? lane.timeoutMs;
      return await this.client.request(lane, contract.pattern, full, timeoutMs, identity);
    } catch (error) {
      if (contract.readOnly && error instanceof DomainError && error.code === 'timeout') {
        throw new DomainError(
          'overloaded',
          'The register did not answer in time; nothing was changed, try again shortly',
        );
      }
      throw error;
    }
  }
}

function callerOf(access: AccessRecord): CallerContext {
  return {
    workspaceId: access.workspaceId,
    keyId: access.keyId,
    scope: access.scope,
    plan: access.plan,
    limits: access.limits,
    actorName: access.keyName ?? access.prefix,
  };
}
