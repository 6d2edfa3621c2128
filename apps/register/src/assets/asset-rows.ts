import type { AssetDetail, AssetStatus, AssetSummary, NamedRef } from '@custodian/contracts';

/** A row of the summary query; column names are the SQL aliases below. */
export interface AssetSummaryRow {
  id: string;
  name: string;
  sku: string | null;
  status: AssetStatus;
  brand: string | null;
  model: string | null;
  serial_number: string | null;
  category_name: string | null;
  assigned_to_id: string | null;
  assigned_name: string | null;
  updated_at: Date;
}

export interface AssetDetailRow extends AssetSummaryRow {
  asset_tag: string;
  category_id: string | null;
  location_id: string | null;
  location_name: string | null;
  assigned_at: Date | null;
  custom_fields: Record<string, unknown>;
  created_at: Date;
}

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
    assigned_to: holderOf(row),
    custody:
      row.assigned_to_id === null || row.assigned_at === null
        ? null
        : { person: holderOf(row)!, since: row.assigned_at.toISOString() },
    custom_fields: row.custom_fields,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function holderOf(row: AssetSummaryRow): NamedRef | null {
  return row.assigned_to_id === null
    ? null
    : { id: row.assigned_to_id, name: row.assigned_name ?? '' };
}
