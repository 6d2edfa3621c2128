import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { AccessHook } from './access-hook';

/**
 * The API's front door: the Fastify hook that admits every /api/v1 request (bootstrap.ts
 * installs it) and, per route, @RequiresScope / @Public with AccessGuard.
 */
@Module({})
export class AccessModule {
  /**
   * `admission` is the module that exports KeyAdmission (limits/rate-limits.module.ts).
   * app.module.ts passes it in, so that this folder, which keys, limits and every route
   * build on, imports none of them.
   */
  static admittingWith(admission: Type<unknown>): DynamicModule {
    return {
      module: AccessModule,
      imports: [admission],
      providers: [AccessHook],
      exports: [AccessHook],
    };
  }
}
