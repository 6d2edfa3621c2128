import { Module } from '@nestjs/common';
import { EventFeedController } from './event-feed.controller';
import { EventFeedService } from './event-feed.service';
import { EventFeedWriter } from './event-feed.writer';
import { FeedPruner } from './feed-pruner';

/** The change feed: appended by the events consumer, read by GET /api/v1/events, pruned. */
@Module({
  controllers: [EventFeedController],
  providers: [EventFeedService, EventFeedWriter, FeedPruner],
  exports: [EventFeedWriter],
})
export class FeedModule {}
