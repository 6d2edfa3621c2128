// The API keys' server state: the list, creating and revoking.
import type { KeyScope } from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { createKey, listKeys, revokeKey } from '../api/keys.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const keyKeys = {
  list: () => [QUERY_ROOT.keys, 'list'] as const,
};

export const keyQueries = {
  list: () => queryOptions({ queryKey: keyKeys.list(), queryFn: () => listKeys() }),
};

/** What a write to a key can change: the keys, the plan page's keys, the activity. */
const CHANGED_BY_KEY_WRITES = [QUERY_ROOT.keys, QUERY_ROOT.usage, QUERY_ROOT.activity] as const;

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, scope }: { name: string; scope: KeyScope }) => createKey(name, scope),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_KEY_WRITES),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeKey(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_KEY_WRITES),
  });
}
