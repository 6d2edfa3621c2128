import { DomainError } from '@custodian/contracts';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AccessPolicy, RequestWithAccess } from './access-hook';

export const ACCESS_POLICY = 'custodian:access-policy';

/**
 * The route's half of access control: AccessHook has already resolved the key, applied the
 * limits and the plan gate before the body was read; this checks the route's scope.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<RequestWithAccess>();
    const record = request.access;
    if (!record) throw new DomainError('unauthenticated', 'API key is missing');
    if ((policy?.scope ?? 'write') === 'write' && record.scope !== 'write') {
      throw new DomainError(
        'forbidden',
        `This API key has the read scope; ${request.method} ${request.routeOptions.url ?? request.url} requires the write scope`,
      );
    }
    return true;
  }
}
