import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../limits/rate-limits.module';
import { RedisModule } from '../../redis/redis.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleSessions } from './console-sessions';
import { RecentSignInGuard } from './recent-sign-in';
import { SignInController } from './sign-in.controller';
import { SignInLimiter } from './sign-in-limiter';

/**
 * Signing in and out, picking a workspace, the account's password and sessions; and what
 * @RecentSignIn needs (a console module whose routes carry it imports this one).
 */
@Module({
  imports: [ConsoleSessionModule, RateLimitsModule, RedisModule, RegisterClientModule],
  controllers: [SignInController],
  providers: [ConsoleSessions, SignInLimiter, RecentSignInGuard],
  exports: [SignInLimiter, RecentSignInGuard, ConsoleSessionModule, RegisterClientModule],
})
export class ConsoleSignInModule {}
