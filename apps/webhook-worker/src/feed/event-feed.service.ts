import {
  DomainError,
  EVENT_FEED_LIMIT_DEFAULT,
  EVENT_FEED_LIMIT_MAX,
  EVENT_FEED_NOW,
  isEventKey,
  type EventFeedMessage,
  type EventFeedPage,
} from '@custodian/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkerConfig } from '../config/worker-config';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';
import { oldestKept, scanFeed } from './feed.store';

/**
 * The most rows of a workspace a page with `types` looks through: a filter that matches
 * little answers with what it found and a cursor past what it looked at (`has_more`), so no
 * request walks a whole month of a busy workspace's events.
 */
export const FEED_SCAN_MAX = 10_000;

/** GET /api/v1/events: a page of the workspace's change feed. */
@Injectable()
export class EventFeedService {
  constructor(
    private readonly db: DataSource,
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
  ) {}

  async page(message: EventFeedMessage): Promise<EventFeedPage> {
    const limit = parseLimit(message.limit);
    const types = parseTypes(message.types);
    const now = message.after === EVENT_FEED_NOW;
    const after = message.after === undefined || now ? 0n : decodeFeedCursor(message.after);
    // With types, look further than a page: most rows may not match.
    const scan = types ? FEED_SCAN_MAX : limit + 1;
    // `now` reads nothing but the head (scan 0 still answers the head and the horizon).
    const read = await scanFeed(this.db, message.workspace, after, now ? 0 : scan);
    if (now) return { data: [], next: encodeFeedCursor(read.head), has_more: false };
    if (message.after !== undefined && after < read.horizon) {
      throw new DomainError('gone', await this.goneMessage(message.workspace, read.horizon));
    }
    if (after > read.head) {
      throw new DomainError(
        'invalid_input',
        'after is past the end of the feed: not a cursor it gave',
      );
    }
    const matching = types ? read.rows.filter((row) => types.has(row.event)) : read.rows;
    const page = matching.slice(0, limit);
    const lastOfPage = page[page.length - 1];
    if (matching.length > limit && lastOfPage) {
      return {
        data: page.map((row) => row.payload),
        next: encodeFeedCursor(lastOfPage.position),
        has_more: true,
      };
    }
    const lastScanned = read.rows[read.rows.length - 1];
    if (read.rows.length === scan && lastScanned) {
      // Looked through as much as a page may and found fewer than limit: go on from there.
      return {
        data: matching.map((row) => row.payload),
        next: encodeFeedCursor(lastScanned.position),
        has_more: true,
      };
    }
    // The end: every event at or below the head was visible to this read, so the cursor moves
    // to the head even when this workspace had nothing there (it then never falls behind the
    // horizon while its client keeps reading).
    const start = after > read.horizon ? after : read.horizon;
    return {
      data: matching.map((row) => row.payload),
      next: encodeFeedCursor(read.head > start ? read.head : start),
      has_more: false,
    };
  }

  private async goneMessage(workspaceId: string, horizon: bigint): Promise<string> {
    const days = this.config.EVENT_FEED_RETENTION_DAYS;
    const oldest = await oldestKept(this.db, workspaceId);
    const restart = `after=${encodeFeedCursor(horizon)}`;
    const kept = oldest
      ? `the oldest event still kept is ${oldest.id} of ${oldest.created_at}`
      : 'no event of this workspace is kept';
    return (
      `after is older than the ${days} days of events the feed keeps: events after it are gone, ` +
      `${kept}. Reconcile by paged reads of the API, then read on from ${restart}`
    );
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return EVENT_FEED_LIMIT_DEFAULT;
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > EVENT_FEED_LIMIT_MAX) {
    throw new DomainError(
      'invalid_input',
      `limit must be a whole number from 1 to ${EVENT_FEED_LIMIT_MAX}`,
    );
  }
  return n;
}

/** `types`: a comma list of event keys or `*` (every key: no filter), as endpoints take. */
function parseTypes(raw: string | undefined): Set<string> | null {
  if (raw === undefined) return null;
  const keys = raw
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  if (keys.length === 0)
    throw new DomainError('invalid_input', 'types must name an event key, or *');
  if (keys.includes('*')) {
    if (keys.length > 1)
      throw new DomainError('invalid_input', 'types must be * alone, or event keys');
    return null;
  }
  const unknown = keys.filter((key) => !isEventKey(key));
  if (unknown.length > 0) {
    throw new DomainError(
      'invalid_input',
      `types names ${unknown.length === 1 ? 'an unknown event key' : 'unknown event keys'}: ` +
        `${unknown.slice(0, 5).join(', ')} (the keys are in the webhook catalog)`,
    );
  }
  return new Set(keys);
}
