// The signed-in member's calendar feed in this workspace: whether it exists, a new URL, revoking.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getCalendarFeed, issueCalendarFeed, revokeCalendarFeed } from '../api/calendar-feed.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const calendarFeedQueries = {
  current: () =>
    queryOptions({ queryKey: [QUERY_ROOT.calendarFeed, 'current'], queryFn: getCalendarFeed }),
};

export function useIssueCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => issueCalendarFeed(),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.calendarFeed]),
  });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => revokeCalendarFeed(),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.calendarFeed]),
  });
}
