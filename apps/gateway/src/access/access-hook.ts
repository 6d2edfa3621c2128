import { DomainError, type KeyScope } from '@custodian/contracts';
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessGate } from '../limits/access-gate';
import { ClientAddressLimiter } from '../limits/client-address-limiter';
import { limitHeaders, quotaMessage, rateLimitMessage } from '../limits/limit-headers';
import { secondsUntil } from '../limits/windows';
import { GatewayEvents } from '../outbox/gateway-events';
import type { AccessRecord } from './access-record';

/** What a route declares through @RequiresScope, carried in Fastify's route config. */
export interface AccessPolicy {
  scope: KeyScope;
  /** False only for /ping, which never counts against the monthly quota. */
  countsTowardQuota: boolean;
}

export type RequestWithAccess = FastifyRequest & { access?: AccessRecord };

const API_PATH = /^\/api\/v1(\/|$)/;

/**
 * Runs on every request to /api/v1 as Fastify's first hook, before the body is parsed and
 * before a 404 is decided: the key, the limits (one Redis round trip), the plan gate. So a
 * request tied to a key counts and carries the limit headers whatever happens next (400 for
 * malformed JSON, 413, 415, 404); the route's guard then checks the scope.
 */
@Injectable()
export class AccessHook {
  private readonly logger = new Logger('AccessHook');

  constructor(
    private readonly gate: AccessGate,
    private readonly addresses: ClientAddressLimiter,
    private readonly events: GatewayEvents,
  ) {}

  async onRequest(request: RequestWithAccess, reply: FastifyReply): Promise<void> {
    if (!API_PATH.test(request.url) || isPublicRoute(request)) return;
    // An unknown route asked without any key is simply not found.
    if (request.is404 && !hasCredentials(request)) return;
    const policy = (request.routeOptions.config as { access?: AccessPolicy }).access;
    const decision = await this.admit(request, reply, policy?.countsTowardQuota ?? true);
    const record = decision.record;
    // The plan gate runs on every request, ping included.
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
    request.access = record;
  }

  private async admit(request: FastifyRequest, reply: FastifyReply, countsTowardQuota: boolean) {
    try {
      return await this.gate.admit(extractApiKey(request.headers), countsTowardQuota, () =>
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

  /**
   * Before Postgres is asked about a key Redis does not know: is this address blocked? Keys
   * already cached pass; an uncached valid key from a blocked address waits out the minute
   * with the guesses (the price of not letting guesses reach Postgres).
   */
  private async refuseBlockedAddress(request: FastifyRequest, reply: FastifyReply) {
    const verdict = await this.addresses.check(request.ip);
    if (verdict?.retryAfter) {
      void reply.headers(verdict.headers).header('retry-after', verdict.retryAfter);
      throw this.addresses.tooManyError();
    }
  }

  private announceQuotaReached(record: AccessRecord): void {
    // Only a finite quota can be reached (the gate never reports an unlimited one as reached).
    const quota = record.limits.monthlyQuota;
    if (quota === null) return;
    this.events
      .write('plan.limit_reached', record.workspaceId, {
        workspace: { id: record.workspaceId, name: record.workspaceName },
        plan: record.plan,
        limit: 'monthly_quota',
        value: quota,
        key: { id: record.keyId, prefix: record.prefix },
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'could not record plan.limit_reached');
      });
  }
}

function isPublicRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.config as { public?: boolean }).public === true;
}

function hasCredentials(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
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
