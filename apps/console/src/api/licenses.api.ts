import type {
  License,
  LicenseChanges,
  LicenseInput,
  LicenseKey,
  LicenseListQuery,
  LicensePage,
  LicenseSeat,
  LicenseSeatInput,
  LicenseSettings,
  LicenseSettingsChanges,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listLicenses(query: LicenseListQuery): Promise<LicensePage> {
  return send(
    'see licences',
    client.GET('/console/api/licenses', { params: { query } }),
    'licenses.view',
  );
}

export function getLicense(id: string): Promise<License> {
  return send('see licences', client.GET('/console/api/licenses/{id}', byId(id)), 'licenses.view');
}

export function createLicense(input: LicenseInput): Promise<License> {
  return send(
    'add licences',
    client.POST('/console/api/licenses', { body: input }),
    'licenses.manage',
  );
}

export function updateLicense(id: string, changes: LicenseChanges): Promise<License> {
  return send(
    'change licences',
    client.PATCH('/console/api/licenses/{id}', { ...byId(id), body: changes }),
    'licenses.manage',
  );
}

export function deleteLicense(id: string): Promise<License> {
  return send(
    'delete licences',
    client.DELETE('/console/api/licenses/{id}', byId(id)),
    'licenses.manage',
  );
}

export function revealLicenseKey(id: string): Promise<LicenseKey> {
  return send(
    'read product keys',
    client.POST('/console/api/licenses/{id}/key', byId(id)),
    'licenses.manage',
  );
}

export function listSeats(id: string): Promise<LicenseSeat[]> {
  return send(
    'see licences',
    client.GET('/console/api/licenses/{id}/seats', byId(id)),
    'licenses.view',
  );
}

export function assignSeat(id: string, input: LicenseSeatInput): Promise<LicenseSeat> {
  return send(
    'assign seats',
    client.POST('/console/api/licenses/{id}/seats', { ...byId(id), body: input }),
    'licenses.manage',
  );
}

export function releaseSeat(id: string, seatId: string): Promise<LicenseSeat> {
  return send(
    'release seats',
    client.DELETE('/console/api/licenses/{id}/seats/{seatId}', {
      params: { path: { id, seatId } },
    }),
    'licenses.manage',
  );
}

export function getLicenseSettings(): Promise<LicenseSettings> {
  return send(
    'see licence settings',
    client.GET('/console/api/settings/licenses'),
    'licenses.view',
  );
}

export function updateLicenseSettings(changes: LicenseSettingsChanges): Promise<LicenseSettings> {
  return send(
    'change licence settings',
    client.PATCH('/console/api/settings/licenses', { body: changes }),
    'licenses.manage',
  );
}
