// The asset requests domain's server state: its query keys, its reads and its writes.
import type {
  AssetRequest,
  AssetRequestApproval,
  AssetRequestInput,
  AssetRequestListQuery,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  approveRequest,
  createRequest,
  getRequest,
  listRequests,
  rejectRequest,
} from '../api/requests.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const requestKeys = {
  list: (query: AssetRequestListQuery) => [QUERY_ROOT.requests, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.requests, 'detail', id] as const,
};

export const requestQueries = {
  list: (query: AssetRequestListQuery) =>
    queryOptions({ queryKey: requestKeys.list(query), queryFn: () => listRequests(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: requestKeys.detail(id), queryFn: () => getRequest(id) }),
};

/**
 * A decision checks an asset out or books it: requests, assets (their holder), people (what
 * they hold) and the activity change.
 */
const CHANGED_BY_DECISIONS = [
  QUERY_ROOT.requests,
  QUERY_ROOT.assets,
  QUERY_ROOT.people,
  QUERY_ROOT.activity,
] as const;

export function useCreateRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AssetRequestInput): Promise<AssetRequest> => createRequest(input),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.requests, QUERY_ROOT.activity]),
  });
}

export type Decision =
  { id: string; approve: AssetRequestApproval } | { id: string; reject: { note: string } };

export function useDecideRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision): Promise<AssetRequest> =>
      'approve' in decision
        ? approveRequest(decision.id, decision.approve)
        : rejectRequest(decision.id, decision.reject),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_DECISIONS),
  });
}
