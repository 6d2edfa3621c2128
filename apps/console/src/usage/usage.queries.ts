// The plan and usage page's server state. Writes elsewhere (assets, people, members, keys)
// invalidate it by its root (shared/query-keys.ts).
import { queryOptions } from '@tanstack/react-query';
import { getUsage } from '../api/usage.api';
import { QUERY_ROOT } from '../shared/query-keys';

export const usageKeys = {
  plan: () => [QUERY_ROOT.usage, 'plan'] as const,
};

export const usageQueries = {
  plan: () => queryOptions({ queryKey: usageKeys.plan(), queryFn: () => getUsage() }),
};
