import type { CallerContext, RegisterPattern, RegisterRequest } from '@custodian/contracts';
import { RpcPeer } from '@custodian/messaging';
import { Inject, Injectable } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { GatewayConfig } from '../config/gateway-config';

/** The gateway's one way to the register: every call carries the caller and a timeout. */
@Injectable()
export class RegisterClient extends RpcPeer {
  constructor(@Inject(GatewayConfig) config: GatewayConfig) {
    super({
      url: config.RABBITMQ_URL,
      queue: config.REGISTER_QUEUE,
      timeoutMs: config.REGISTER_TIMEOUT_MS,
      connectionName: 'custodian-gateway',
      serviceName: 'register',
    });
  }

  call<T>(pattern: RegisterPattern, access: AccessRecord, payload: object): Promise<T> {
    const request: RegisterRequest<object> = { caller: callerOf(access), payload };
    return this.rpc.request<T>(pattern, request);
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
