import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { RateLimitsModule } from '../limits/rate-limits.module';
import { RedisModule } from '../redis/redis.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { ConsoleKeysController } from './keys/console-keys.controller';
import { ConsoleAccessGuard } from './session/console-access';
import { SessionStore } from './session/session-store';
import { ConsoleSessions } from './sign-in/console-sessions';
import { SignInController } from './sign-in/sign-in.controller';
import { SignInLimiter } from './sign-in/sign-in-limiter';

/**
 * The console's HTTP API under /console/api: members signed in by session, never API keys.
 * Every write goes to the app that owns it, through the same services the admin CLI uses.
 */
@Module({
  imports: [AdminModule, RateLimitsModule, RedisModule, RegisterClientModule],
  controllers: [SignInController, ConsoleKeysController],
  providers: [SessionStore, ConsoleSessions, SignInLimiter, ConsoleAccessGuard],
})
export class ConsoleModule {}
