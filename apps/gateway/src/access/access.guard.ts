import { DomainError, type KeyScope } from '@custodian/contracts';
import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessGate } from '../limits/access-gate';
import { ClientAddressLimiter } from '../limits/client-address-limiter';
import { limitHeaders, quotaMessage, rateLimitMessage } from '../limits/limit-headers';
import { secondsUntil } from '../limits/windows';
import { GatewayEvents } from '../outbox/gateway-events';
import type { AccessRecord } from './access-record';

export const ACCESS_POLICY = 'custodian:access-policy';

export interface AccessPolicy {
  scope: KeyScope;
  /** False only for /ping, which never counts against the monthly quota. */
  countsTowardQuota: boolean;
}

export type RequestWithAccess = FastifyRequest & { access?: AccessRecord };

/**
 * Every API request: the key, the limits (one Redis round trip), the plan gate, the scope.
 * Headers for the limits go on the reply before anything can fail, so error responses tied to
 * a key carry them too.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('AccessGuard');

  constructor(
    private readonly gate: AccessGate,
    private readonly addresses: ClientAddressLimiter,
    private readonly events: GatewayEvents,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]) ?? { scope: 'write', countsTowardQuota: true };
    const request = context.switchToHttp().getRequest<RequestWithAccess>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();

    const decision = await this.admit(request, reply, policy);
    const record = decision.record;
    // The plan gate runs on every request, before the scope check, ping included.
    if (!record.apiAccess) {
      throw new DomainError(
        'forbidden',
        `The ${record.plan} plan does not include API access; upgrade to the pro plan or above`,
      );
    }
    if (decision.limits) void reply.headers(limitHeaders(decision.limits));
    if (decision.verdict === 'rate_limited' && decision.limits) {
      void reply.header('retry-after', secondsUntil(decision.limits.windowResetAt, Date.now()));
      throw new DomainError('rate_limited', rateLimitMessage(decision.limits));
    }
    if (decision.verdict === 'quota_exceeded' && decision.limits) {
      void reply.header('retry-after', secondsUntil(decision.limits.monthEndsAt, Date.now()));
      throw new DomainError('rate_limited', quotaMessage(decision.limits));
    }
    if (decision.quotaReached) this.announceQuotaReached(record);
    if (policy.scope === 'write' && record.scope !== 'write') {
      throw new DomainError(
        'forbidden',
        `This API key has the read scope; ${request.method} ${request.routeOptions.url ?? request.url} requires the write scope`,
      );
    }
    request.access = record;
    return true;
  }

  private async admit(request: FastifyRequest, reply: FastifyReply, policy: AccessPolicy) {
    try {
      return await this.gate.admit(extractApiKey(request.headers), policy.countsTowardQuota, () =>
        this.refuseBlockedAddress(request, reply),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthenticated') {
        const verdict = await this.addresses.countFailure(request.ip);
        if (verdict) void reply.headers(verdict.headers);
        if (verdict?.retryAfter) {
          void reply.header('retry-after', verdict.retryAfter);
          throw this.addresses.tooManyError();
        }
      }
      throw error;
    }
  }

  /** Before Postgres is asked about a key Redis does not know: is this address blocked? */
  private async refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply) {
    const verdict = await this.addresses.check(request.ip);
    if (verdict?.retryAfter) {
      void reply.headers(verdict.headers).header('retry-after', verdict.retryAfter);
      throw this.addresses.tooManyError();
    }
  }

  private announceQuotaReached(record: AccessRecord): void {
    this.events
      .write('plan.limit_reached', record.workspaceId, {
        workspace: { id: record.workspaceId, name: record.workspaceName },
        plan: record.plan,
        limit: 'monthly_quota',
        value: record.limits.monthlyQuota,
        key: { id: record.keyId, prefix: record.prefix },
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not record plan.limit_reached');
      });
  }
}

/** `Authorization: Bearer <key>` or `x-api-key: <key>`; Fastify lower-cases header names. */
export function extractApiKey(headers: FastifyRequest['headers']): string {
  const apiKeyHeader = headers['x-api-key'];
  const authorization = headers.authorization;
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw new DomainError('unauthenticated', 'Authorization header must be "Bearer <API key>"');
    }
    bearer = match[1];
  }
  // Node joins a repeated x-api-key into one "a, b" string, which then fails the checksum.
  const fromHeader = (Array.isArray(apiKeyHeader) ? apiKeyHeader.join(', ') : apiKeyHeader)?.trim();
  if (bearer && fromHeader && bearer !== fromHeader) {
    throw new DomainError('unauthenticated', 'Authorization and x-api-key carry different keys');
  }
  const key = bearer ?? fromHeader;
  if (!key) {
    throw new DomainError(
      'unauthenticated',
      'API key is missing; send it as "Authorization: Bearer <key>" or "x-api-key: <key>"',
    );
  }
  return key;
}
