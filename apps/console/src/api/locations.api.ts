import type {
  Location,
  LocationChanges,
  LocationInput,
  LocationListQuery,
  LocationPage,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listLocations(query: LocationListQuery): Promise<LocationPage> {
  return send(
    'see locations',
    client.GET('/console/api/locations', { params: { query } }),
    'locations.view',
  );
}

export function getLocation(id: string): Promise<Location> {
  return send(
    'see locations',
    client.GET('/console/api/locations/{id}', byId(id)),
    'locations.view',
  );
}

export function createLocation(input: LocationInput): Promise<Location> {
  return send(
    'add locations',
    client.POST('/console/api/locations', { body: input }),
    'locations.manage',
  );
}

export function updateLocation(id: string, changes: LocationChanges): Promise<Location> {
  return send(
    'change locations',
    client.PATCH('/console/api/locations/{id}', { ...byId(id), body: changes }),
    'locations.manage',
  );
}

export function deleteLocation(id: string): Promise<Location> {
  return send(
    'delete locations',
    client.DELETE('/console/api/locations/{id}', byId(id)),
    'locations.manage',
  );
}
