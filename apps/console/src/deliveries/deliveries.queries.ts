// The delivery log's server state: the log for a set of filters, read a page at a time, one
// delivery with its attempts, and resending.
import type { DeliveryFilters, ResendFilters } from '@custodian/console-client';
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  getDelivery,
  listDeliveries,
  resendDelivery,
  resendFailedDeliveries,
} from '../api/deliveries.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const deliveryKeys = {
  /** The log for these filters (without a cursor: the pages are the query's own). */
  log: (query: DeliveryFilters) => [QUERY_ROOT.deliveries, 'log', query] as const,
  detail: (id: string) => [QUERY_ROOT.deliveries, 'detail', id] as const,
};

export const deliveryQueries = {
  /** Newest first; each next page is older than the cursor the previous one ended with. */
  log: (query: DeliveryFilters) =>
    infiniteQueryOptions({
      queryKey: deliveryKeys.log(query),
      queryFn: ({ pageParam }) =>
        listDeliveries(pageParam === null ? query : { ...query, before: pageParam }),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.next_cursor,
    }),
  detail: (id: string) =>
    queryOptions({ queryKey: deliveryKeys.detail(id), queryFn: () => getDelivery(id) }),
};

/** A resend starts a new chain: the log, and the endpoints' success rates and failure counts. */
const CHANGED_BY_RESENDS = [QUERY_ROOT.deliveries, QUERY_ROOT.webhooks] as const;

export function useResendDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => resendDelivery(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_RESENDS),
  });
}

export function useResendFailedDeliveries() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (filters: ResendFilters) => resendFailedDeliveries(filters),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_RESENDS),
  });
}
