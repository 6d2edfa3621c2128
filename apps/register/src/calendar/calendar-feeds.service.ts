import {
  CALENDAR_FEED_COMPLETED_DAYS,
  CALENDAR_FEED_EVENTS_MAX,
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  DomainError,
  type CalendarFeed,
  type CalendarFeedEvents,
  type CalendarFeedOwner,
  type CalendarFeedTokenInput,
  type CallerContext,
  type IssuedCalendarFeed,
  type MemberRefInput,
} from '@custodian/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { feedBookings, feedCheckOuts, type FeedWindow } from '../bookings/booking-feed.store';
import { RegisterConfig } from '../config/register-config';
import { findMemberRow } from '../members/member.store';
import { ReadTransactions } from '../requests/read-transactions';
import { hashToken, isWellFormedToken, newToken } from '../tokens/one-time-token';
import { deleteFeed, findFeed, openFeed, putFeed, type FeedRow } from './calendar-feed.store';
import { capFeed } from './feed-order';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A member's calendar feed (issue 32): a secret URL, made and revoked from the console's
 * Account page, that calendar apps fetch without a session. The URL's token is shown once and
 * only its hash is kept (tokens/one-time-token.ts); the feed answers as long as the member is
 * an active member of the workspace.
 */
@Injectable()
export class CalendarFeedsService {
  constructor(
    private readonly db: DataSource,
    private readonly reads: ReadTransactions,
    private readonly config: RegisterConfig,
  ) {}

  async get(input: MemberRefInput): Promise<CalendarFeed> {
    return toView(await findFeed(this.db.manager, input.workspace, input.id));
  }

  /**
   * A new URL for the member: their first, or in place of the old one, which stops working
   * with this commit. The member's row is locked first, so a removal waits for this to commit
   * and then takes the feed with it (or came first, and this is refused).
   */
  async issue(input: MemberRefInput): Promise<IssuedCalendarFeed> {
    const token = newToken();
    const row = await this.db.transaction(async (tx) => {
      await lockActiveMember(tx, input.workspace, input.id);
      return putFeed(tx, input.workspace, input.id, hashToken(token));
    });
    return { ...toView(row), url: feedUrl(this.config.PUBLIC_BASE_URL, token) };
  }

  /** The URL stops working. A member without a feed may revoke it again: nothing happens. */
  async revoke(input: MemberRefInput): Promise<CalendarFeed> {
    await this.db.transaction((tx) => deleteFeed(tx, input.workspace, input.id));
    return toView(undefined);
  }

  /**
   * Whose feed a presented token opens. Every way of not opening one (malformed, unknown,
   * replaced, revoked, the member removed or not active) is the same not_found, so a guesser
   * learns nothing; the gateway counts it against the client's address.
   */
  async open(input: CalendarFeedTokenInput): Promise<CalendarFeedOwner> {
    const owner = isWellFormedToken(input.token)
      ? await openFeed(this.db.manager, hashToken(input.token))
      : undefined;
    if (!owner) throw new DomainError('not_found', 'Calendar feed not found');
    return owner;
  }

  /**
   * The caller's workspace's events for a feed: bookings and hand-made check-outs' due dates
   * in [now - CALENDAR_FEED_PAST_DAYS, now + CALENDAR_FEED_FUTURE_DAYS), at most
   * CALENDAR_FEED_EVENTS_MAX (feed-order.ts says which are kept).
   */
  async events(caller: CallerContext, now = new Date()): Promise<CalendarFeedEvents> {
    const window: FeedWindow = {
      workspaceId: caller.workspaceId,
      from: new Date(now.getTime() - CALENDAR_FEED_PAST_DAYS * DAY_MS),
      to: new Date(now.getTime() + CALENDAR_FEED_FUTURE_DAYS * DAY_MS),
      now,
      completedSince: new Date(now.getTime() - CALENDAR_FEED_COMPLETED_DAYS * DAY_MS),
      limit: CALENDAR_FEED_EVENTS_MAX + 1,
    };
    const read = await this.reads.heavy(async (db) => ({
      bookings: await feedBookings(db, window),
      checkOuts: await feedCheckOuts(db, window),
    }));
    const kept = capFeed(read.bookings, read.checkOuts, now, CALENDAR_FEED_EVENTS_MAX);
    return {
      base_url: this.config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      bookings: kept.bookings.map((row) => ({
        ...row,
        starts_at: row.starts_at.toISOString(),
        ends_at: row.ends_at.toISOString(),
        completed_at: row.completed_at?.toISOString() ?? null,
        updated_at: row.updated_at.toISOString(),
      })),
      check_outs: kept.checkOuts.map((row) => ({
        ...row,
        assigned_at: row.assigned_at.toISOString(),
        due_at: row.due_at.toISOString(),
      })),
      truncated: kept.truncated,
    };
  }
}

/** The URL a calendar app subscribes to: served by the gateway, outside /api/v1. */
export function feedUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/calendar/${token}.ics`;
}

/** The member, locked; refused once they are gone or no longer active. */
async function lockActiveMember(tx: EntityManager, workspaceId: string, id: string) {
  const gone = new DomainError('forbidden', 'You are no longer a member of this workspace');
  const member = await findMemberRow(tx, workspaceId, id, true).catch((error: unknown) => {
    throw error instanceof DomainError && error.code === 'not_found' ? gone : error;
  });
  if (member.status !== 'active') throw gone;
  return member;
}

function toView(row: FeedRow | undefined): CalendarFeed {
  return {
    active: row !== undefined,
    created_at: row?.created_at.toISOString() ?? null,
    last_used_at: row?.last_used_at?.toISOString() ?? null,
  };
}
