// The licences domain's server state: its query keys, its reads and its writes.
import type {
  License,
  LicenseChanges,
  LicenseInput,
  LicenseListQuery,
  LicenseSeat,
  LicenseSeatInput,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  assignSeat,
  createLicense,
  deleteLicense,
  getLicense,
  getLicenseSettings,
  listLicenses,
  listSeats,
  releaseSeat,
  updateLicense,
  updateLicenseSettings,
} from '../api/licenses.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const licenseKeys = {
  list: (query: LicenseListQuery) => [QUERY_ROOT.licenses, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.licenses, 'detail', id] as const,
  seats: (id: string) => [QUERY_ROOT.licenses, 'detail', id, 'seats'] as const,
};

export const licenseQueries = {
  list: (query: LicenseListQuery) =>
    queryOptions({ queryKey: licenseKeys.list(query), queryFn: () => listLicenses(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: licenseKeys.detail(id), queryFn: () => getLicense(id) }),
  seats: (id: string) =>
    queryOptions({ queryKey: licenseKeys.seats(id), queryFn: () => listSeats(id) }),
  settings: () =>
    queryOptions({ queryKey: [QUERY_ROOT.licenseSettings], queryFn: getLicenseSettings }),
};

export function useSaveLicenseSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateLicenseSettings,
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.licenseSettings, QUERY_ROOT.activity]),
  });
}

// A seat shows on its holder's page too; a licence's name on the seats there.
const CHANGED_BY_LICENSE_WRITES = [
  QUERY_ROOT.licenses,
  QUERY_ROOT.people,
  QUERY_ROOT.assets,
  QUERY_ROOT.activity,
] as const;

export type LicenseSave =
  { id: null; input: LicenseInput } | { id: string; changes: LicenseChanges };

export function useSaveLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: LicenseSave): Promise<License> =>
      save.id === null ? createLicense(save.input) : updateLicense(save.id, save.changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_LICENSE_WRITES),
  });
}

export function useDeleteLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<License> => deleteLicense(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_LICENSE_WRITES),
  });
}

export type SeatChange = { id: string; assign: LicenseSeatInput } | { id: string; release: string };

export function useSeatChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: SeatChange): Promise<LicenseSeat> =>
      'assign' in change
        ? assignSeat(change.id, change.assign)
        : releaseSeat(change.id, change.release),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_LICENSE_WRITES),
  });
}
