// The imports domain's server state: its query keys, its reads and its writes.
import type { Import, ImportQuery, ImportRowQuery } from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelImport,
  getImport,
  listImportRows,
  listImports,
  startImport,
  uploadImport,
} from '../api/imports.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';
import { isRunning } from './import-values';

/** How often a running import (uploading, planning, importing) is read again on screen. */
const LIVE_MS = 1_000;

export const importKeys = {
  lists: () => [QUERY_ROOT.imports, 'list'] as const,
  list: (page: number) => [QUERY_ROOT.imports, 'list', page] as const,
  detail: (id: string) => [QUERY_ROOT.imports, 'detail', id] as const,
  rows: (id: string, query: ImportRowQuery) => [QUERY_ROOT.imports, 'rows', id, query] as const,
};

export const importQueries = {
  list: (page: number, pageSize: number) =>
    queryOptions({
      queryKey: importKeys.list(page),
      queryFn: () => listImports(page, pageSize),
      // A running import's counts move in the list too.
      refetchInterval: (query) =>
        query.state.data?.data.some((each) => isRunning(each.status)) ? LIVE_MS : false,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: importKeys.detail(id),
      queryFn: () => getImport(id),
      // The progress bar follows the job; a finished import is read once.
      refetchInterval: (query) =>
        query.state.data && isRunning(query.state.data.status) ? LIVE_MS : false,
    }),
  rows: (id: string, query: ImportRowQuery, live: boolean) =>
    queryOptions({
      queryKey: importKeys.rows(id, query),
      queryFn: () => listImportRows(id, query),
      refetchInterval: live ? LIVE_MS : false,
    }),
};

// An import creates and changes assets or people, and every row it writes is in the activity.
const CHANGED_BY_IMPORTS = [
  QUERY_ROOT.imports,
  QUERY_ROOT.assets,
  QUERY_ROOT.people,
  QUERY_ROOT.activity,
] as const;

export function useUploadImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, query }: { file: File; query: ImportQuery }): Promise<Import> =>
      uploadImport(file, query),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.imports]),
  });
}

export function useStartImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Import> => startImport(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_IMPORTS),
  });
}

export function useCancelImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Import> => cancelImport(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_IMPORTS),
  });
}
