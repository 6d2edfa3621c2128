import type { AssetDetail, AssetSummary, NamedRef } from '@custodian/contracts';
import type { PersonEntity } from '../people/person.entity';
import type { AssetEntity } from './asset.entity';
import type { CategoryEntity } from '../categories/category.entity';
import type { LocationEntity } from '../locations/location.entity';

/**
 * A row of the summary query: columns of the asset, and the names its LEFT JOINs bring (null
 * without a match). Column names are the SQL aliases below.
 */
export type AssetSummaryRow = Pick<
  AssetEntity,
  | 'id'
  | 'name'
  | 'sku'
  | 'status'
  | 'brand'
  | 'model'
  | 'serial_number'
  | 'assigned_to_id'
  | 'updated_at'
> & {
  category_name: CategoryEntity['name'] | null;
  assigned_name: PersonEntity['full_name'] | null;
};

export type AssetDetailRow = AssetSummaryRow &
  Pick<
    AssetEntity,
    | 'asset_tag'
    | 'category_id'
    | 'location_id'
    | 'assigned_at'
    | 'custody_due_at'
    | 'custom_fields'
    | 'condition'
    | 'last_scanned_at'
    | 'created_at'
  > & {
    location_name: LocationEntity['name'] | null;
  };

export function toSummary(row: AssetSummaryRow): AssetSummary {
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    status: row.status,
    brand: row.brand,
    model: row.model,
    serial_number: row.serial_number,
    category: row.category_name === null ? null : { name: row.category_name },
    assigned_to: holderOf(row),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toDetail(row: AssetDetailRow): AssetDetail {
  const holder = holderOf(row);
  return {
    id: row.id,
    name: row.name,
    sku: row.sku,
    status: row.status,
    brand: row.brand,
    model: row.model,
    serial_number: row.serial_number,
    asset_tag: row.asset_tag,
    category:
      row.category_id === null ? null : { id: row.category_id, name: row.category_name ?? '' },
    location:
      row.location_id === null ? null : { id: row.location_id, name: row.location_name ?? '' },
    assigned_to: holder,
    custody:
      holder === null || row.assigned_at === null
        ? null
        : {
            person: holder,
            since: row.assigned_at.toISOString(),
            due_at: row.custody_due_at?.toISOString() ?? null,
          },
    custom_fields: row.custom_fields,
    condition: row.condition,
    last_scanned_at: row.last_scanned_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function holderOf(row: AssetSummaryRow): NamedRef | null {
  return row.assigned_to_id === null
    ? null
    : { id: row.assigned_to_id, name: row.assigned_name ?? '' };
}
