import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { RateLimitsModule } from '../limits/rate-limits.module';
import { RedisModule } from '../redis/redis.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { CalendarFeedLimiter } from './calendar-feed-limiter';
import { CalendarFeedController } from './calendar-feed.controller';

/** Members' calendar feeds as calendar apps fetch them (GET /calendar/<token>.ics). */
@Module({
  imports: [RegisterClientModule, RateLimitsModule, RedisModule, AdminModule],
  controllers: [CalendarFeedController],
  providers: [CalendarFeedLimiter],
})
export class CalendarFeedModule {}
