import {
  DateField,
  EnumField,
  InstantField,
  OpenObjectField,
  TextField,
} from '../fields/field.decorators';
import { CATEGORY_BY_ID, CATEGORY_BY_NAME } from '../categories/category.fields';
import { LOCATION_BY_ID, LOCATION_BY_NAME } from '../locations/location.fields';
import type { ListSort } from '../shared/paging';
import {
  ASSET_CONDITIONS,
  ASSET_STATUSES,
  type AssetCondition,
  type AssetStatus,
} from './asset.constants';

const CONDITION =
  'Physical condition: ' +
  ASSET_CONDITIONS.join(', ') +
  '; or null for not recorded. A change fires `asset.condition_changed` with both values.';

const TEXT_MAX = 200;

const DUE_AT =
  'When the check-out is due back (ISO 8601 with its offset, e.g. `2026-12-01T17:00:00Z`), in ' +
  'the future; or null for none. Only for an asset checked out by this request ' +
  '(`assigned_to_id`) or already checked out; a new check-out or a check-in without it clears ' +
  'it. Once it passes while the asset is still out, `assignment.overdue` fires, once per due date.';
const PURCHASE_DATE = 'The day it was bought (`YYYY-MM-DD`), or null.';
const WARRANTY =
  'The last day of its warranty (`YYYY-MM-DD`), not before `purchase_date`; or null for none. ' +
  '`warranty.expiring` fires once at each threshold of the notice settings (30 and 7 days ' +
  'before by default; one already reached fires at once), `warranty.expired` once when the day ' +
  'has ended (UTC). A new date arms them again.';

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
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: CATEGORY_BY_NAME })
  category?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: CATEGORY_BY_ID })
  category_id?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: LOCATION_BY_NAME })
  location?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: LOCATION_BY_ID })
  location_id?: string | null;
  @OpenObjectField(CLEARABLE) custom_fields?: Record<string, unknown> | null;
  @EnumField(ASSET_CONDITIONS, { ...CLEARABLE, description: CONDITION })
  condition?: AssetCondition | null;
  @DateField({ ...CLEARABLE, description: PURCHASE_DATE }) purchase_date?: string | null;
  @DateField({ ...CLEARABLE, description: WARRANTY }) warranty_expires_on?: string | null;

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
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: CATEGORY_BY_NAME })
  category?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: CATEGORY_BY_ID })
  category_id?: string | null;
  @TextField({ min: 1, max: TEXT_MAX, notBlank: true, ...CLEARABLE, description: LOCATION_BY_NAME })
  location?: string | null;
  @TextField({ min: 1, max: 64, ...CLEARABLE, description: LOCATION_BY_ID })
  location_id?: string | null;
  @OpenObjectField(CLEARABLE) custom_fields?: Record<string, unknown> | null;
  @EnumField(ASSET_CONDITIONS, { ...CLEARABLE, description: CONDITION })
  condition?: AssetCondition | null;
  @DateField({ ...CLEARABLE, description: PURCHASE_DATE }) purchase_date?: string | null;
  @DateField({ ...CLEARABLE, description: WARRANTY }) warranty_expires_on?: string | null;

  /** A person id checks the asset out to them; `null` checks it in. */
  @TextField({ min: 1, max: 64, ...CLEARABLE }) assigned_to_id?: string | null;

  /**
   * The due date of the check-out this request makes or of the one in place; `null` removes
   * it. A check-out (or check-in) without it has none.
   */
  @InstantField({ ...CLEARABLE, description: DUE_AT }) due_at?: string | null;
}

export interface AssetListQuery {
  page: number | null;
  pageSize: number;
  status: AssetStatus | null;
  search: string | null;
  /** Only the assets checked out to this person (`assigned_to_id`; beyond the spec). */
  assignedToId: string | null;
  /** Only the assets whose warranty ends before this day (`warranty_expires_before`). */
  warrantyExpiresBefore: string | null;
  /** Only the assets at this place (`location_id`)... */
  locationId: string | null;
  /** ...or anywhere under it too (`include_children=true`). */
  includeChildren: boolean;
  /** Only the assets of this category (`category_id`). */
  categoryId: string | null;
  /** `sort` (beyond the spec); null is oldest first. */
  sort: ListSort | null;
  /** Only the assets changed at or after this instant (`updated_since`), oldest change first. */
  updatedSince: string | null;
}

/** Body of POST /console/api/assets/scan: what the scanner typed. */
export class ScanBody {
  @TextField({
    min: 1,
    max: 200,
    notBlank: true,
    description: 'An asset tag or serial number as scanned; surrounding spaces are ignored.',
  })
  code!: string;
}
