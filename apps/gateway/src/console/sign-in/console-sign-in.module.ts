import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../limits/rate-limits.module';
import { RedisModule } from '../../redis/redis.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleSessions } from './console-sessions';
import { SignInController } from './sign-in.controller';
import { SignInLimiter } from './sign-in-limiter';

/** Signing in and out, picking a workspace, the account's password. */
@Module({
  imports: [ConsoleSessionModule, RateLimitsModule, RedisModule, RegisterClientModule],
  controllers: [SignInController],
  providers: [ConsoleSessions, SignInLimiter],
})
export class ConsoleSignInModule {}
