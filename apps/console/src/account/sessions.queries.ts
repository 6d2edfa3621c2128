// The account's sessions: the list of the signed-in e-mail's sessions, and signing them out.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { endOtherSessions, endSession, listSessions } from '../api/session.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const sessionQueries = {
  list: () => queryOptions({ queryKey: [QUERY_ROOT.sessions, 'list'], queryFn: listSessions }),
};

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => endSession(id),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.sessions]),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => endOtherSessions(),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.sessions]),
  });
}
