import { DomainError, type KeyScope } from '@custodian/contracts';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AccessRecord } from './access-record';
import { AccessService } from './access.service';

export const REQUIRED_SCOPE = 'custodian:required-scope';

export type RequestWithAccess = FastifyRequest & { access?: AccessRecord };

@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly access: AccessService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<KeyScope | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<RequestWithAccess>();
    const record = await this.access.resolve(extractApiKey(request.headers));
    // The plan gate runs on every request, before the scope check, ping included.
    if (!record.apiAccess) {
      throw new DomainError(
        'forbidden',
        `The ${record.plan} plan does not include API access; upgrade to the pro plan or above`,
      );
    }
    if (required === 'write' && record.scope !== 'write') {
      throw new DomainError(
        'forbidden',
        `This API key has the read scope; ${request.method} ${request.routeOptions.url ?? request.url} requires the write scope`,
      );
    }
    request.access = record;
    return true;
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
  if (Array.isArray(apiKeyHeader)) {
    throw new DomainError('unauthenticated', 'x-api-key header must be sent once');
  }
  const fromHeader = apiKeyHeader?.trim();
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
