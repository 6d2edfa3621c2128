import { Module } from '@nestjs/common';
import {
  CalendarFeedsAdminRpcController,
  CalendarFeedsRpcController,
} from './calendar-feeds.rpc-controller';
import { CalendarFeedsService } from './calendar-feeds.service';

/** Members' calendar feeds: their URLs, and the events a feed shows. */
@Module({
  controllers: [CalendarFeedsRpcController, CalendarFeedsAdminRpcController],
  providers: [CalendarFeedsService],
})
export class CalendarModule {}
