import { EnumField, InstantField, OpenObjectField, TextField } from './fields/field.decorators';
import type { Asset } from './models/assets';

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
const CONDITION =
  'Physical condition: ' +
  ASSET_CONDITIONS.join(', ') +
  '; or null for not recorded. A change fires `asset.condition_changed` with both values.';

export const ASSET_PAGE_SIZE_DEFAULT = 50;
export const ASSET_PAGE_SIZE_MAX = 200;
export const ASSET_UNPAGED_MAX = 10_000;
/** How many deleted assets the console's bin lists, most recently deleted first. */
export const DELETED_ASSETS_SHOWN = 200;
/**
 * The unpaged lists (assets, people) as JSON: at most 15 MiB, so the RPC reply that carries
 * one stays under 16 MiB (RabbitMQ 4's default max_message_size) whatever the rows hold.
 */
export const UNPAGED_MAX_BYTES = 15 * 1024 * 1024;

const TEXT_MAX = 200;

const DUE_AT =
  'When the check-out is due back (ISO 8601 with its offset, e.g. `2026-12-01T17:00:00Z`), in ' +
  'the future; or null for none. Only for an asset checked out by this request ' +
  '(`assigned_to_id`) or already checked out; a new check-out or a check-in without it clears ' +
  'it. Once it passes while the asset is still out, `assignment.overdue` fires, once per due date.';
/** What may be left out, or sent as `null` to leave (or make) a field empty. */
const CLEARABLE = { optional: true, nullable: true } as const;

/**
 * Body of POST /assets. Unknown fields are refused by the validator (whitelist). Text the
 * register stores trimmed must not be blank: whitespace alone would be stored as ''.
 */
export class CreateAssetInput {
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true }) name!: string;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) sku?: string | null;
  @EnumField(ASSET_STATUSES, CLEARABLE) status?: AssetStatus;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) brand?: string | null;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) model?: string | null;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) serial_number?: string | null;
  @TextField({ min: 1, max: 64, notBlank: true, ...CLEARABLE }) asset_tag?: string;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) category?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) location?: string | null;
  @OpenObjectField(CLEARABLE) custom_fields?: Record<string, unknown> | null;
  @EnumField(ASSET_CONDITIONS, { ...CLEARABLE, description: CONDITION })
  condition?: AssetCondition | null;

  /** Checks the asset out to this person (of the same workspace). */
  @TextField({ min: 1, max: 64, ...CLEARABLE }) assigned_to_id?: string | null;

  /** When the check-out is due back: only with `assigned_to_id`, and in the future. */
  @InstantField({ ...CLEARABLE, description: DUE_AT }) due_at?: string | null;
}

/**
 * Body of PATCH /assets/{id}: every field optional, `null` clears, except the fields that an
 * asset cannot be without (name, status, asset_tag), for which `null` is refused.
 */
export class UpdateAssetInput {
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, optional: true }) name?: string;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) sku?: string | null;
  @EnumField(ASSET_STATUSES, { optional: true }) status?: AssetStatus;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) brand?: string | null;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) model?: string | null;
  @TextField({ max: TEXT_MAX, ...CLEARABLE }) serial_number?: string | null;
  @TextField({ min: 1, max: 64, notBlank: true, optional: true }) asset_tag?: string;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) category?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE }) location?: string | null;
  @OpenObjectField(CLEARABLE) custom_fields?: Record<string, unknown> | null;
  @EnumField(ASSET_CONDITIONS, { ...CLEARABLE, description: CONDITION })
  condition?: AssetCondition | null;

  /** A person id checks the asset out to them; `null` checks it in. */
  @TextField({ min: 1, max: 64, ...CLEARABLE }) assigned_to_id?: string | null;

  /**
   * The due date of the check-out this request makes or of the one in place; `null` removes
   * it. A check-out (or check-in) without it has none.
   */
  @InstantField({ ...CLEARABLE, description: DUE_AT }) due_at?: string | null;
}

/** Query of GET /assets, as the gateway received it (strings, unparsed). */
export type RawQuery = Record<string, string | string[] | undefined>;

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

/** A list's order: a column of the table, then the id in the same direction. */
export interface ListSort {
  column: string;
  descending: boolean;
}

export interface AssetListQuery {
  page: number | null;
  pageSize: number;
  status: AssetStatus | null;
  search: string | null;
  /** Only the assets checked out to this person (`assigned_to_id`; beyond the spec). */
  assignedToId: string | null;
  /** `sort` (beyond the spec); null is oldest first. */
  sort: ListSort | null;
}

/** An asset as the single fetch shows it; also the body of create and update responses. */
export type AssetDetail = Asset;

/** `{data, page, pageSize, total}`: a list route asked for a `page` (classes: `pageOf`). */
export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** Admin queue, tests only (OVERDUE_TEST_CLOCK=on): the overdue sweep, as if it were `at`. */
export class OverdueSweepInput {
  @InstantField() at!: string;
}

export interface OverdueSweepView {
  /** Check-outs that became overdue and fired assignment.overdue. */
  fired: number;
}
