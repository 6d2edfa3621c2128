import { DomainError, type KeyScope } from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routedPath } from './routed-path';
import type { AccessRecord } from './access-record';
import { KeyAdmission } from './key-admission';

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
 * before a 404 is decided, and hands the request to admission: the key, the limits (one Redis
 * round trip), the plan gate. So a request tied to a key counts and carries the limit headers
 * whatever happens next (400 for malformed JSON, 413, 415, 404); the route's guard then checks
 * the scope.
 */
@Injectable()
export class AccessHook {
  constructor(private readonly admission: KeyAdmission) {}

  async onRequest(request: RequestWithAccess, reply: FastifyReply): Promise<void> {
    // By the routed path, not the raw URL: `/%61pi/v1/...` is routed to the API too.
    if (!API_PATH.test(routedPath(request)) || isPublicRoute(request)) return;
    // An unknown route asked without any key is simply not found.
    if (request.is404 && !hasCredentials(request)) return;
    const policy = (request.routeOptions.config as { access?: AccessPolicy }).access;
    const admission = await this.admission.admitKey(
      () => extractApiKey(request.headers),
      request.ip,
      policy?.countsTowardQuota ?? true,
    );
    void reply.headers(admission.headers);
    if (admission.refusal) throw admission.refusal;
    request.access = admission.record;
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
