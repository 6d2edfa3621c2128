import type { KeyScope } from '@custodian/contracts';
import {
  applyDecorators,
  createParamDecorator,
  SetMetadata,
  UseGuards,
  type ExecutionContext,
} from '@nestjs/common';
import type { AccessRecord } from './access-record';
import { AccessGuard, REQUIRED_SCOPE, type RequestWithAccess } from './access.guard';

/**
 * The one decorator every API route carries: it resolves the key, applies the plan gate and
 * checks the scope. A route without it fails lint (tools/lint-rules).
 */
export function RequiresScope(scope: KeyScope): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), UseGuards(AccessGuard));
}

/** The caller's access record, as the guard resolved it. */
export const Access = createParamDecorator(
  (_: unknown, context: ExecutionContext): AccessRecord =>
    context.switchToHttp().getRequest<RequestWithAccess>().access!,
);
