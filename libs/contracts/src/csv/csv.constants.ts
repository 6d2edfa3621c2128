/**
 * The CSV columns of assets and people (issue 35): what an export writes as its header, and
 * what an import reads by header (custom fields: their key, besides these). One list for both,
 * so an export imports back as it is.
 */
export const ASSET_CSV_COLUMNS = [
  'id',
  'name',
  'asset_tag',
  'serial_number',
  'status',
  'brand',
  'model',
  'sku',
  'category',
  'category_id',
  'location',
  'location_id',
  'assigned_to_id',
  'assigned_to',
  'due_at',
  'condition',
  'purchase_date',
  'warranty_expires_on',
  'created_at',
  'updated_at',
] as const;
export type AssetCsvColumn = (typeof ASSET_CSV_COLUMNS)[number];

export const PERSON_CSV_COLUMNS = [
  'id',
  'full_name',
  'email',
  'employee_number',
  'department',
  'location',
  'location_id',
  'status',
  'created_at',
  'updated_at',
] as const;
export type PersonCsvColumn = (typeof PERSON_CSV_COLUMNS)[number];

/** Rows the register reads per export chunk: the most a gateway holds of an export at once. */
export const EXPORT_CHUNK_ROWS = 2_000;
