import type { ListSource } from './list-sql';

/**
 * The SELECT lists and joins of the register's asset reads, aliased as the row types of
 * apps/register/src/assets/asset-rows.ts expect. The benchmark's bare handler serves the very
 * same SQL (tools/bench), so the comparison is of everything around the query.
 */
export const SUMMARY_COLUMNS = `a.id, a.name, a.sku, a.status, a.brand, a.model, a.serial_number,
  c.name AS category_name, a.assigned_to_id, p.full_name AS assigned_name, a.updated_at`;

export const SUMMARY_FROM = `register.assets a
  LEFT JOIN register.categories c ON c.id = a.category_id
  LEFT JOIN register.people p ON p.id = a.assigned_to_id`;

export const DETAIL_COLUMNS = `${SUMMARY_COLUMNS}, a.asset_tag, a.category_id, a.location_id,
  l.name AS location_name, a.assigned_at, a.custody_due_at, a.custom_fields, a.condition,
  a.last_scanned_at, a.created_at`;

export const DETAIL_FROM = `${SUMMARY_FROM}
  LEFT JOIN register.locations l ON l.id = a.location_id`;

/** What GET /assets reads: the register's AssetsService.list and the bench's bare handler. */
export const ASSET_LIST: ListSource = {
  columns: SUMMARY_COLUMNS,
  from: SUMMARY_FROM,
  table: 'register.assets',
  alias: 'a',
  counter: 'asset_count',
  version: 'asset_version',
  rowsVersion: 'asset_rows_version',
};
