import type { ListSource } from './list-sql';

/*
 * The two asset reads the API serves, whole statements and nothing smaller: the register's
 * asset store (apps/register/src/assets/asset.store.ts, which owns every other statement on
 * register.assets) re-exports them, and the read bench's bare handler serves the very same SQL
 * from here, so the benchmark compares everything around the query and a tool never imports
 * an app. Besides them only the detail's select list and joins are exported, for the
 * register's reads of a detail with more (the overdue sweep's).
 */

/**
 * The licence seats a holder's row holds, oldest first, as a JSON array of
 * `{id, license: {id, name}, assigned_at}` (`assigned_at` as Postgres writes a timestamptz in
 * JSON: the row's reader makes it ISO). Licences in the bin are left out. `holder` is the
 * holder's column of register.license_seats, `row` the alias of its row; one probe of the
 * (workspace_id, holder) index.
 */
export interface HeldSeatJson {
  id: string;
  license: { id: string; name: string };
  assigned_at: string;
}

export function heldSeatsSql(holder: 'person_id' | 'asset_id', row: string): string {
  return `coalesce((SELECT json_agg(json_build_object('id', s.id,
      'license', json_build_object('id', li.id, 'name', li.name),
      'assigned_at', s.assigned_at) ORDER BY s.assigned_at, s.id)
    FROM register.license_seats s
    JOIN register.licenses li ON li.id = s.license_id AND li.deleted_at IS NULL
    WHERE s.workspace_id = ${row}.workspace_id AND s.${holder} = ${row}.id), '[]'::json)`;
}

/**
 * The SELECT lists and joins, aliased as the register's row types expect (AssetSummaryRow,
 * AssetDetailRow in apps/register/src/assets/asset.store.ts).
 */
const SUMMARY_COLUMNS = `a.id, a.name, a.sku, a.status, a.brand, a.model, a.serial_number,
  c.name AS category_name, a.assigned_to_id, p.full_name AS assigned_name, a.updated_at`;

const SUMMARY_FROM = `register.assets a
  LEFT JOIN register.categories c ON c.id = a.category_id
  LEFT JOIN register.people p ON p.id = a.assigned_to_id`;

const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, a.asset_tag, a.category_id, a.location_id,
  l.name AS location_name, a.assigned_at, a.custody_due_at, a.custom_fields, a.condition,
  a.last_scanned_at, to_char(a.purchase_date, 'YYYY-MM-DD') AS purchase_date,
  to_char(a.warranty_expires_on, 'YYYY-MM-DD') AS warranty_expires_on, a.created_at,
  ${heldSeatsSql('asset_id', 'a')} AS seats`;

const DETAIL_FROM = `${SUMMARY_FROM}
  LEFT JOIN register.locations l ON l.id = a.location_id`;

/** The detail's select list and joins, for a read of an asset's detail and more. */
export const ASSET_DETAIL = { columns: DETAIL_COLUMNS, from: DETAIL_FROM } as const;

/** What GET /assets reads: AssetsService.list and the bench's bare handler. */
export const ASSET_LIST: ListSource = {
  columns: SUMMARY_COLUMNS,
  from: SUMMARY_FROM,
  table: 'register.assets',
  alias: 'a',
  counter: 'asset_count',
  version: 'asset_version',
  rowsVersion: 'asset_rows_version',
};

/** What GET /assets/{id} reads ($1 the id, $2 the workspace): findAssetRow and the bench's. */
export const ASSET_BY_ID = `SELECT ${DETAIL_COLUMNS} FROM ${DETAIL_FROM} WHERE a.id = $1 AND a.workspace_id = $2`;
