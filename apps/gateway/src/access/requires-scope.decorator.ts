import type { KeyScope } from '@custodian/contracts';
import {
  applyDecorators,
  createParamDecorator,
  SetMetadata,
  UseGuards,
  type ExecutionContext,
} from '@nestjs/common';
import type { AccessRecord } from './access-record';
import {
  ACCESS_POLICY,
  AccessGuard,
  type AccessPolicy,
  type RequestWithAccess,
} from './access.guard';

/**
 * The one decorator every API route carries: it resolves the key, applies the limits and the
 * plan gate, and checks the scope. A route without it fails lint (tools/lint-rules).
 */
export function RequiresScope(
  scope: KeyScope,
  options: { countsTowardQuota?: boolean } = {},
): MethodDecorator & ClassDecorator {
  const policy: AccessPolicy = { scope, countsTowardQuota: options.countsTowardQuota ?? true };
  return applyDecorators(SetMetadata(ACCESS_POLICY, policy), UseGuards(AccessGuard));
}

/** The caller's access record, as the guard resolved it. */
export const Access = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessRecord =>
    context.switchToHttp().getRequest<RequestWithAccess>().access!,
);
