// The assets domain's server state: its query keys, its reads and its writes.
import type {
  Asset,
  AssetChanges,
  AssetInput,
  AssetListQuery,
  BulkAssetInput,
  BulkAssetReply,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  bulkChangeAssets,
  createAsset,
  deleteAsset,
  findPeople,
  getAsset,
  getVersionedAsset,
  listAssets,
  listCustomFields,
  listDeletedAssets,
  restoreAsset,
  scanAsset,
  updateAsset,
} from '../api/assets.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const assetKeys = {
  /** One page of the list: the page, the search, the status filter and the order. */
  list: (query: AssetListQuery) => [QUERY_ROOT.assets, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.assets, 'detail', id] as const,
  /** The asset with its ETag, as an edit form starts from. */
  editable: (id: string) => [QUERY_ROOT.assets, 'editable', id] as const,
  bin: () => [QUERY_ROOT.assets, 'bin'] as const,
  customFields: () => [QUERY_ROOT.assets, 'custom-fields'] as const,
  /** Active people to check an asset out to; people's writes invalidate the assets root. */
  custodians: (search: string) => [QUERY_ROOT.assets, 'custodians', search] as const,
};

export const assetQueries = {
  list: (query: AssetListQuery) =>
    queryOptions({ queryKey: assetKeys.list(query), queryFn: () => listAssets(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: assetKeys.detail(id), queryFn: () => getAsset(id) }),
  /**
   * Read afresh for each form (never a cached copy): the version a form starts from is the one
   * its save names (If-Match), so the form and its ETag must be the same read.
   */
  editable: (id: string) =>
    queryOptions({
      queryKey: assetKeys.editable(id),
      queryFn: () => getVersionedAsset(id),
      staleTime: 0,
      gcTime: 0,
      refetchOnWindowFocus: false,
    }),
  bin: () => queryOptions({ queryKey: assetKeys.bin(), queryFn: () => listDeletedAssets() }),
  customFields: () =>
    queryOptions({ queryKey: assetKeys.customFields(), queryFn: () => listCustomFields() }),
  custodians: (search: string) =>
    queryOptions({ queryKey: assetKeys.custodians(search), queryFn: () => findPeople(search) }),
};

/**
 * What a write to an asset can change: the assets, what people hold (their holdings, their
 * count), the activity, the plan's count of assets, and the counts of assets of places and
 * categories (a new name also makes a new one).
 */
const CHANGED_BY_ASSET_WRITES = [
  QUERY_ROOT.assets,
  QUERY_ROOT.people,
  QUERY_ROOT.activity,
  QUERY_ROOT.usage,
  QUERY_ROOT.locations,
  QUERY_ROOT.categories,
] as const;

/**
 * A new asset, or changes to one; `etag`: the version the changes were made to (If-Match), so
 * a change someone else made meanwhile is refused (412), not overwritten.
 */
export type AssetSave =
  { id: null; input: AssetInput } | { id: string; changes: AssetChanges; etag?: string | null };

/** Adds an asset (`id` null) or changes one: the form, custody, the condition. */
export function useSaveAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: AssetSave): Promise<Asset> =>
      save.id === null ? createAsset(save.input) : updateAsset(save.id, save.changes, save.etag),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ASSET_WRITES),
  });
}

/** Moves an asset to the bin. */
export function useDeleteAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteAsset(id),
    onSuccess: (_deleted, id) => {
      // Not read again: it answers 404 now, and the page showing it is being left.
      client.removeQueries({ queryKey: assetKeys.detail(id), exact: true });
      return invalidateRoots(client, CHANGED_BY_ASSET_WRITES);
    },
  });
}

/** The list's bulk actions: whatever a single write may change, for many assets. */
export function useBulkChangeAssets() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkAssetInput): Promise<BulkAssetReply> => bulkChangeAssets(body),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ASSET_WRITES),
  });
}

export function useRestoreAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => restoreAsset(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_ASSET_WRITES),
  });
}

/** A scan is recorded on the asset (its last scan) and in the activity. */
export function useScanAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => scanAsset(code),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.assets, QUERY_ROOT.activity]),
  });
}
