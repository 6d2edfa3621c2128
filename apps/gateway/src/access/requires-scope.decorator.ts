import type { KeyScope } from '@custodian/contracts';
import {
  applyDecorators,
  createParamDecorator,
  SetMetadata,
  UseGuards,
  type ExecutionContext,
} from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { AccessPolicy, RequestWithAccess } from './access-hook';
import type { AccessRecord } from './access-record';
import { ACCESS_POLICY, AccessGuard } from './access.guard';

export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'apiKey';
/** Carries the route's scope and quota rule into the OpenAPI document. */
export const SCOPE_EXTENSION = 'x-custodian-access';

/**
 * The one decorator every API route carries: the key, the limits and the plan gate (in
 * AccessHook, which reads the policy from Fastify's route config), and the scope (in the
 * guard). A route without it, or @Public, fails lint (tools/lint-rules).
 */
export function RequiresScope(
  scope: KeyScope,
  options: { countsTowardQuota?: boolean } = {},
): MethodDecorator & ClassDecorator {
  const policy: AccessPolicy = { scope, countsTowardQuota: options.countsTowardQuota ?? true };
  return applyDecorators(
    SetMetadata(ACCESS_POLICY, policy),
    RouteConfig({ access: policy }),
    UseGuards(AccessGuard),
    // The document's security requirements and common responses come from here, so a route
    // cannot be keyed without its documentation saying so.
    ApiBearerAuth(BEARER_SCHEME),
    ApiSecurity(API_KEY_SCHEME),
    ApiExtension(SCOPE_EXTENSION, policy),
  );
}

/**
 * The caller's access record, as AccessHook resolved it. Only routes with @RequiresScope have
 * one; asking for it on any other route is a wiring bug, reported as such.
 */
export const Access = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessRecord => {
    const { access } = context.switchToHttp().getRequest<RequestWithAccess>();
    if (!access) throw new Error('@Access() used on a route without @RequiresScope');
    return access;
  },
);
