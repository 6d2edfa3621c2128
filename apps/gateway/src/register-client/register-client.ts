import type {
  CallerContext,
  CallerMessage,
  ReplyOf,
  RequestOf,
  RpcContract,
} from '@custodian/contracts';
import { RpcClient, RpcPeer, type RequestIdentity } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { GatewayConfig } from '../config/gateway-config';

/** The gateway's one way to the register: every call carries the caller and a timeout. */
@Injectable()
export class RegisterClient extends RpcPeer {
  constructor(client: RpcClient, @Inject(GatewayConfig) config: GatewayConfig) {
    super(client, {
      queue: config.REGISTER_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      serviceName: 'register',
      // The register applies each request once (its writes store the request id): a request
      // whose reply was lost with the connection is asked again, not failed as ambiguous.
      resendAfterReconnect: true,
    });
  }

  /**
   * A message of the register's API queue (RegisterRpc), sent as the key's caller; `identity`
   * when the client gave an Idempotency-Key (http/idempotency-key.ts).
   */
  call<C extends RpcContract<CallerMessage>>(
    contract: C,
    access: AccessRecord,
    message: Omit<RequestOf<C>, 'caller'>,
    identity?: RequestIdentity,
  ): Promise<ReplyOf<C>> {
    // Omit<R, 'caller'> plus the caller is R; the compiler cannot see it through the generic.
    const full = { ...message, caller: callerOf(access) } as RequestOf<C>;
    return this.send(contract, full, undefined, identity);
  }
}

function callerOf(access: AccessRecord): CallerContext {
  return {
    workspaceId: access.workspaceId,
    keyId: access.keyId,
    scope: access.scope,
    plan: access.plan,
    limits: access.limits,
  };
}
