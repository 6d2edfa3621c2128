// The maintenance domain's server state: its query keys, its reads and its writes.
import type {
  Maintenance,
  MaintenanceInput,
  MaintenanceListQuery,
  MaintenanceResolution,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createMaintenance,
  listAssetMaintenance,
  listMaintenance,
  resolveMaintenance,
} from '../api/maintenance.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const maintenanceKeys = {
  list: (query: MaintenanceListQuery) => [QUERY_ROOT.maintenance, 'list', query] as const,
  ofAsset: (assetId: string, query: MaintenanceListQuery) =>
    [QUERY_ROOT.maintenance, 'asset', assetId, query] as const,
};

export const maintenanceQueries = {
  list: (query: MaintenanceListQuery) =>
    queryOptions({ queryKey: maintenanceKeys.list(query), queryFn: () => listMaintenance(query) }),
  ofAsset: (assetId: string, query: MaintenanceListQuery) =>
    queryOptions({
      queryKey: maintenanceKeys.ofAsset(assetId, query),
      queryFn: () => listAssetMaintenance(assetId, query),
    }),
};

/** A record may change its asset's status: the assets are read again too. */
const CHANGED_BY_MAINTENANCE_WRITES = [
  QUERY_ROOT.maintenance,
  QUERY_ROOT.assets,
  QUERY_ROOT.activity,
] as const;

export function useLogMaintenance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (log: { assetId: string; input: MaintenanceInput }): Promise<Maintenance> =>
      createMaintenance(log.assetId, log.input),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_MAINTENANCE_WRITES),
  });
}

export function useResolveMaintenance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (resolve: {
      id: string;
      resolution: MaintenanceResolution;
    }): Promise<Maintenance> => resolveMaintenance(resolve.id, resolve.resolution),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_MAINTENANCE_WRITES),
  });
}
