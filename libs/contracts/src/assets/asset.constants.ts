export const ASSET_STATUSES = [
  'active',
  'maintenance',
  'retired',
  'lost',
  'stolen',
  'inactive',
] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/** The physical condition of an asset, best first; null while nobody has recorded one. */
export const ASSET_CONDITIONS = ['new', 'good', 'fair', 'poor', 'broken'] as const;
export type AssetCondition = (typeof ASSET_CONDITIONS)[number];

/** How many deleted assets the console's bin lists, most recently deleted first. */
export const DELETED_ASSETS_SHOWN = 200;

/**
 * What `GET /assets?sort=` takes: a column, `-` before it for descending. Without it, oldest
 * first (`created_at`), as the spec lists.
 */
export const ASSET_SORTS = ['created_at', 'name', 'updated_at'] as const;
export type AssetSortColumn = (typeof ASSET_SORTS)[number];

/** The `sort` values of the assets list, as documented: each column, then each descending. */
export const ASSET_SORT_VALUES: string[] = [
  ...ASSET_SORTS,
  ...ASSET_SORTS.map((column) => `-${column}`),
];

export const SCAN_MATCHES = ['asset_tag', 'serial_number', 'asset_id'] as const;
export type ScanMatch = (typeof SCAN_MATCHES)[number];
