import {
  EVENT_FEED_LIMIT_DEFAULT,
  EVENT_FEED_LIMIT_MAX,
  EVENT_FEED_RETENTION_DAYS,
  EventFeedPage,
  EventFeedQuery,
  WorkerApiRpc,
} from '@custodian/contracts';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiErrors } from '../http/api-docs.decorators';
import { WorkerAdminClient } from '../worker-client/worker-admin-client';

/** The change feed: the webhook-worker keeps it; the gateway forwards with the key's workspace. */
@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(private readonly worker: WorkerAdminClient) {}

  @Get()
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'listEvents',
    summary: 'Read the change feed',
    description:
      "The workspace's events in the order they were committed, each exactly as its webhook " +
      'delivers it (`{id, event, created_at, data}`), with the cursor to read on from. ' +
      'Keep `next` and ask with `after=<next>` (an empty page still moves it): no event that ' +
      'commits later is ever before it, across restarts and replicas, so a receiver that was ' +
      'down reads from its last cursor with no gap and no paging of whole tables. ' +
      `\`limit\` 1 to ${EVENT_FEED_LIMIT_MAX} (default ${EVENT_FEED_LIMIT_DEFAULT}); ` +
      "`types` as a webhook endpoint's `events`. With `types`, a page looks through at most " +
      '10,000 events and may come back short with `has_more` true: read on. Events are kept ' +
      `${EVENT_FEED_RETENTION_DAYS} days; a cursor older than that is a 410 naming the oldest ` +
      'event kept and the cursor to go on from once you have reconciled by paged reads.',
  })
  @ApiOkResponse({ type: EventFeedPage, description: 'OK.' })
  @ApiErrors(400, 410)
  list(@Access() access: AccessRecord, @Query() query: EventFeedQuery): Promise<EventFeedPage> {
    return this.worker.call(WorkerApiRpc.eventFeed, { ...query, workspace: access.workspaceId });
  }
}
