import type {
  Maintenance,
  MaintenanceInput,
  MaintenanceListQuery,
  MaintenancePage,
  MaintenanceResolution,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listMaintenance(query: MaintenanceListQuery): Promise<MaintenancePage> {
  return send(
    'see maintenance records',
    client.GET('/console/api/maintenance', { params: { query } }),
    'maintenance.view',
  );
}

export function listAssetMaintenance(
  assetId: string,
  query: MaintenanceListQuery,
): Promise<MaintenancePage> {
  return send(
    'see maintenance records',
    client.GET('/console/api/assets/{id}/maintenance', {
      params: { path: { id: assetId }, query },
    }),
    'maintenance.view',
  );
}

export function createMaintenance(assetId: string, input: MaintenanceInput): Promise<Maintenance> {
  return send(
    'log maintenance',
    client.POST('/console/api/assets/{id}/maintenance', { ...byId(assetId), body: input }),
    'maintenance.manage',
  );
}

export function resolveMaintenance(
  id: string,
  resolution: MaintenanceResolution,
): Promise<Maintenance> {
  return send(
    'resolve maintenance records',
    client.POST('/console/api/maintenance/{id}/resolve', { ...byId(id), body: resolution }),
    'maintenance.manage',
  );
}
