import { Module } from '@nestjs/common';
import { RedisModule } from '../../redis/redis.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleAccessGuard } from './console-access';
import { ConsoleWriteLimits } from './console-write-limits';
import { SessionStore } from './session-store';

/**
 * Console sessions, for every console module: the store, and what @ConsoleAccess needs. Nest
 * builds a route's guard in the module of its controller, so a module whose routes carry
 * @ConsoleAccess imports this one, which exports the guard's dependencies (SessionStore, the
 * write limits, and the register's admin client through RegisterClientModule). The CSRF check, the cookie and
 * the built console are Fastify's (bootstrap.ts), not Nest's.
 */
@Module({
  imports: [RedisModule, RegisterClientModule],
  providers: [SessionStore, ConsoleWriteLimits, ConsoleAccessGuard],
  exports: [SessionStore, ConsoleWriteLimits, RegisterClientModule],
})
export class ConsoleSessionModule {}
