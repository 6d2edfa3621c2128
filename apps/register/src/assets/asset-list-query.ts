import {
  ASSET_SORTS,
  ASSET_STATUSES,
  type AssetListQuery,
  type RawQuery,
} from '@custodian/contracts';
import { parseListQuery } from '../listing/list-query';

export { likePattern } from '@custodian/register-sql';

/**
 * GET /assets: the shared list query with the six asset statuses, `assigned_to_id`,
 * `warranty_expires_before`, `location_id` (with `include_children`), `category_id`, `sort` and `updated_since`.
 */
export function parseAssetListQuery(raw: RawQuery): AssetListQuery {
  return parseListQuery(raw, ASSET_STATUSES, {
    assignedTo: true,
    warranty: true,
    location: true,
    category: true,
    sorts: ASSET_SORTS,
    updatedSince: true,
  });
}
