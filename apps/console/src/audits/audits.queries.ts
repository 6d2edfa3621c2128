// The audits domain's server state: its query keys, its reads and its writes.
import type {
  Audit,
  AuditCompletion,
  AuditInput,
  AuditItemQuery,
  AuditListQuery,
  AuditScan,
  ConsoleAuditScanInput,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelAudit,
  completeAudit,
  getAudit,
  listAuditItems,
  listAudits,
  recordAuditScan,
  startAudit,
} from '../api/audits.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';
import { isLive } from './audit-values';

/** How often a live audit (starting, open, completing) is read again on screen. */
const LIVE_MS = 2_000;

export const auditKeys = {
  list: (query: AuditListQuery) => [QUERY_ROOT.audits, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.audits, 'detail', id] as const,
  items: (id: string, query: AuditItemQuery) => [QUERY_ROOT.audits, 'items', id, query] as const,
};

export const auditQueries = {
  list: (query: AuditListQuery) =>
    queryOptions({ queryKey: auditKeys.list(query), queryFn: () => listAudits(query) }),
  detail: (id: string) =>
    queryOptions({
      queryKey: auditKeys.detail(id),
      queryFn: () => getAudit(id),
      // Counts change as scans come in, progress as a job runs: the page follows them.
      refetchInterval: (query) =>
        query.state.data && isLive(query.state.data.status) ? LIVE_MS : false,
    }),
  items: (id: string, query: AuditItemQuery, live: boolean) =>
    queryOptions({
      queryKey: auditKeys.items(id, query),
      queryFn: () => listAuditItems(id, query),
      refetchInterval: live ? LIVE_MS : false,
    }),
};

// A completion moves and marks assets; every step is in the activity.
const CHANGED_BY_AUDIT_WRITES = [
  QUERY_ROOT.audits,
  QUERY_ROOT.assets,
  QUERY_ROOT.activity,
] as const;

export function useStartAudit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AuditInput): Promise<Audit> => startAudit(input),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_AUDIT_WRITES),
  });
}

export function useRecordAuditScan(auditId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (scan: ConsoleAuditScanInput): Promise<AuditScan> => recordAuditScan(auditId, scan),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.audits]),
  });
}

export function useCompleteAudit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, options }: { id: string; options: AuditCompletion }): Promise<Audit> =>
      completeAudit(id, options),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_AUDIT_WRITES),
  });
}

export function useCancelAudit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Audit> => cancelAudit(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_AUDIT_WRITES),
  });
}
