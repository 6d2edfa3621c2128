import type {
  Asset,
  AssetChanges,
  AssetInput,
  AssetListQuery,
  AssetPage,
  BulkAssetInput,
  BulkAssetReply,
  CustomField,
  DeletedAsset,
  PersonPage,
  ScannedAsset,
} from '@custodian/console-client';
import { client, ifMatch, send, sendVersioned, type Versioned } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listAssets(query: AssetListQuery): Promise<AssetPage> {
  return send(
    'see assets',
    client.GET('/console/api/assets', { params: { query } }),
    'assets.view',
  );
}

export function getAsset(id: string): Promise<Asset> {
  return send('see assets', client.GET('/console/api/assets/{id}', byId(id)), 'assets.view');
}

/** The asset with its ETag, for a form that saves it back only if nobody changed it since. */
export function getVersionedAsset(id: string): Promise<Versioned<Asset>> {
  return sendVersioned(
    'see assets',
    client.GET('/console/api/assets/{id}', byId(id)),
    'assets.view',
  );
}

export function createAsset(input: AssetInput): Promise<Asset> {
  return send(
    'change assets',
    client.POST('/console/api/assets', { body: input }),
    'assets.manage',
  );
}

/** `etag`: the version the changes were made to; another write since is a 412. */
export function updateAsset(
  id: string,
  changes: AssetChanges,
  etag?: string | null,
): Promise<Asset> {
  return send(
    'change assets',
    client.PATCH('/console/api/assets/{id}', {
      ...byId(id),
      body: changes,
      headers: ifMatch(etag),
    }),
    'assets.manage',
  );
}

export function deleteAsset(id: string): Promise<DeletedAsset> {
  return send(
    'change assets',
    client.DELETE('/console/api/assets/{id}', byId(id)),
    'assets.manage',
  );
}

export function restoreAsset(id: string): Promise<Asset> {
  return send(
    'change assets',
    client.POST('/console/api/assets/{id}/restore', byId(id)),
    'assets.manage',
  );
}

/** One change to many assets: a result per id (updated, unchanged, not found, refused). */
export function bulkChangeAssets(body: BulkAssetInput): Promise<BulkAssetReply> {
  return send('change assets', client.POST('/console/api/assets/bulk', { body }), 'assets.manage');
}

export function listDeletedAssets(): Promise<DeletedAsset[]> {
  return send('see assets', client.GET('/console/api/assets/deleted'), 'assets.view');
}

export function scanAsset(code: string): Promise<ScannedAsset> {
  return send(
    'scan assets',
    client.POST('/console/api/assets/scan', { body: { code } }),
    'assets.scan',
  );
}

/** Active people whose name, e-mail or employee number contains `search` (the picker). */
export function findPeople(search: string): Promise<PersonPage> {
  return send(
    'see people',
    client.GET('/console/api/people', {
      params: { query: { status: 'active', pageSize: 20, ...(search ? { search } : {}) } },
    }),
    'people.view',
  );
}

export function listCustomFields(): Promise<CustomField[]> {
  return send('see assets', client.GET('/console/api/custom-fields'), 'assets.view');
}
