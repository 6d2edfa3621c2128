// The locations domain's server state: its query keys, its reads and its writes.
import type {
  Location,
  LocationChanges,
  LocationInput,
  LocationListQuery,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
} from '../api/locations.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const locationKeys = {
  list: (query: LocationListQuery) => [QUERY_ROOT.locations, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.locations, 'detail', id] as const,
};

/** The whole tree in one read: the API's largest page (500 places). */
export const WHOLE_TREE: LocationListQuery = { page: '1', pageSize: '500' };

export const locationQueries = {
  list: (query: LocationListQuery) =>
    queryOptions({ queryKey: locationKeys.list(query), queryFn: () => listLocations(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: locationKeys.detail(id), queryFn: () => getLocation(id) }),
};

// A place's name shows on assets and people; a move changes what "under it" holds.
const CHANGED_BY_LOCATION_WRITES = [
  QUERY_ROOT.locations,
  QUERY_ROOT.assets,
  QUERY_ROOT.people,
  QUERY_ROOT.activity,
] as const;

export type LocationSave =
  { id: null; input: LocationInput } | { id: string; changes: LocationChanges };

export function useSaveLocation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: LocationSave): Promise<Location> =>
      save.id === null ? createLocation(save.input) : updateLocation(save.id, save.changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_LOCATION_WRITES),
  });
}

export function useDeleteLocation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Location> => deleteLocation(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_LOCATION_WRITES),
  });
}
