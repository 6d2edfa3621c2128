// The activity domain's server state: the feed, read a page at a time. Every other domain's
// writes invalidate it by its root (shared/query-keys.ts).
import type { ActivityQuery } from '@custodian/console-client';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { listActivity } from '../api/activity.api';
import { QUERY_ROOT } from '../shared/query-keys';

export const activityKeys = {
  /** The feed for these filters (a record's history is `{ record_id }`). */
  feed: (query: ActivityQuery) => [QUERY_ROOT.activity, 'feed', query] as const,
};

export const activityQueries = {
  /** Newest first; each next page is older than the last entry shown. */
  feed: (query: ActivityQuery) =>
    infiniteQueryOptions({
      queryKey: activityKeys.feed(query),
      queryFn: ({ pageParam }) =>
        listActivity(pageParam === null ? query : { ...query, before: pageParam }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.next,
    }),
};
