import { EventFeedMessage, WorkerApiRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventFeedService } from './event-feed.service';

/** The change feed, forwarded by the gateway's GET /api/v1/events with the key's workspace. */
@Controller()
export class EventFeedController {
  constructor(private readonly feed: EventFeedService) {}

  @Handles(WorkerApiRpc.eventFeed)
  page(@Payload() message: EventFeedMessage) {
    return this.feed.page(message);
  }
}
