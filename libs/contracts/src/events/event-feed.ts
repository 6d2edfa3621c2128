import { ContractSchema } from '../fields/contract-schema.decorator';
import { Field, ListField, TextField } from '../fields/field.decorators';
import { reply, rpc } from '../rpc/contract';
import { ConsoleWorkspaceMessage } from '../rpc/messages';
import { EventEnvelope } from './event.envelope';
import { IsBoolean } from 'class-validator';

/**
 * How long the change feed keeps an event (issue 35): 30 days on every plan. A cursor older
 * than that is a 410 naming the oldest event still kept.
 */
export const EVENT_FEED_RETENTION_DAYS = 30;
/** Events per page of the feed: `limit` 1 to this, default EVENT_FEED_LIMIT_DEFAULT. */
export const EVENT_FEED_LIMIT_MAX = 1_000;
export const EVENT_FEED_LIMIT_DEFAULT = 100;
/**
 * `after=now`: no events, only the cursor of the feed's present end, for a client that starts
 * following from now rather than from the oldest event kept.
 */
export const EVENT_FEED_NOW = 'now';

/** GET /api/v1/events: the query as sent (strings; the worker checks and names each). */
export class EventFeedQuery {
  @TextField({
    optional: true,
    min: 1,
    max: 64,
    description:
      'The `next` of the previous page (or `now`: the present end of the feed, no events). ' +
      'Without it the feed starts at the oldest event kept.',
  })
  after?: string;

  @TextField({
    optional: true,
    min: 1,
    max: 5,
    description: `Events per page, 1 to ${EVENT_FEED_LIMIT_MAX} (default ${EVENT_FEED_LIMIT_DEFAULT}).`,
  })
  limit?: string;

  @TextField({
    optional: true,
    min: 1,
    max: 4000,
    description:
      'Only these event keys: a comma list (`asset.created,asset.updated`) or `*`, as a ' +
      "webhook endpoint's `events`.",
  })
  types?: string;
}

/** The worker's message: the query and the caller's workspace. */
export class EventFeedMessage extends ConsoleWorkspaceMessage {
  @TextField({ optional: true, min: 1, max: 64 }) after?: string;
  @TextField({ optional: true, min: 1, max: 5 }) limit?: string;
  @TextField({ optional: true, min: 1, max: 4000 }) types?: string;
}

@ContractSchema({
  name: 'EventFeedPage',
  description:
    "A page of the workspace's change feed: events in the order they were committed, each " +
    'exactly as its webhook delivers it.',
})
export class EventFeedPage {
  @ListField(EventEnvelope, { description: 'The events after `after`, oldest first.' })
  data!: EventEnvelope[];

  @TextField({
    description:
      'The cursor to read on from (`after=`). Always set, also on an empty page: keep it and ' +
      'ask again later; no event that commits afterwards is ever before it.',
  })
  next!: string;

  @Field({ type: 'boolean' }, [IsBoolean()], {
    description: 'More events are waiting now: read on at once rather than later.',
  })
  has_more!: boolean;
}

/** The change feed, on the worker's admin queue (the gateway's public route forwards it). */
export const EVENT_FEED_RPC = {
  eventFeed: rpc('events.feed', EventFeedMessage, reply<EventFeedPage>(), { readOnly: true }),
};
