import type { AssetSummary } from '@custodian/console-client';

/** The optional columns of the asset list (the name is always shown, first). */
export const ASSET_COLUMNS = [
  { key: 'status', label: 'Status' },
  { key: 'category', label: 'Category' },
  { key: 'brand', label: 'Brand' },
  { key: 'model', label: 'Model' },
  { key: 'sku', label: 'SKU' },
  { key: 'serial_number', label: 'Serial number' },
  { key: 'assigned_to', label: 'Checked out to' },
  { key: 'updated_at', label: 'Updated' },
] as const satisfies ReadonlyArray<{ key: keyof AssetSummary; label: string }>;

export type AssetColumn = (typeof ASSET_COLUMNS)[number]['key'];

export const DEFAULT_COLUMNS: AssetColumn[] = [
  'status',
  'category',
  'serial_number',
  'assigned_to',
  'updated_at',
];

const STORAGE_KEY = 'custodian.assetColumns';

/** The columns this browser chose last (in the list's order), or the default ones. */
export function chosenColumns(storage: Pick<Storage, 'getItem'> | null): AssetColumn[] {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null');
    if (!Array.isArray(stored)) return DEFAULT_COLUMNS;
    return ASSET_COLUMNS.map((column) => column.key).filter((key) => stored.includes(key));
  } catch {
    return DEFAULT_COLUMNS;
  }
}

export function saveColumns(storage: Pick<Storage, 'setItem'> | null, columns: AssetColumn[]) {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(columns));
  } catch {
    // A browser that keeps nothing (private mode, full storage) shows the choice until reload.
  }
}

/** `columns` with `column` turned on or off, in the list's order. */
export function toggleColumn(columns: AssetColumn[], column: AssetColumn): AssetColumn[] {
  const on = columns.includes(column)
    ? columns.filter((key) => key !== column)
    : [...columns, column];
  return ASSET_COLUMNS.map((each) => each.key).filter((key) => on.includes(key));
}

/**
 * The list as shown, as a CSV download: its search and status, and the columns chosen for the
 * table (their keys are the export's column names), after the id, name and tag. Streamed by
 * the console API; the session cookie goes with a plain link.
 */
export function exportHref(
  search: string | null | undefined,
  status: string | null | undefined,
  columns: readonly string[],
): string {
  const query = new URLSearchParams();
  if (search) query.set('search', search);
  if (status) query.set('status', status);
  query.set('columns', ['id', 'name', 'asset_tag', ...columns].join(','));
  return `/console/api/assets/export?${query}`;
}
