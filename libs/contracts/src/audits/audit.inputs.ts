import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsString,
  Matches,
} from 'class-validator';
import { EnumField, Field, InstantField, TextField } from '../fields/field.decorators';
import {
  AUDIT_ASSET_IDS_MAX,
  AUDIT_ITEM_STATES,
  AUDIT_SCAN_OUTCOMES,
  AUDIT_STATUSES,
  type AuditItemState,
  type AuditScanOutcome,
  type AuditStatus,
} from './audit.constants';

const ID = (prefix: string) => `^${prefix}_[0-9a-z]{26}$`;

const flag = (name: string, description: string) =>
  Field({ type: 'boolean' }, [IsBoolean({ message: `${name} must be true or false` })], {
    optional: true,
    description,
  });

/**
 * Body of POST /audits: a name and exactly one scope: a location (with the places under it
 * when `include_children`), a category, or listed assets.
 */
export class CreateAuditInput {
  @TextField({ min: 1, max: 200, notBlank: true }) name!: string;
  @TextField({
    pattern: ID('loc'),
    optional: true,
    description: 'Audit the assets at this location.',
  })
  location_id?: string;
  @flag(
    'include_children',
    'With `location_id` only: also the assets of every place under it. Default false.',
  )
  include_children?: boolean;
  @TextField({
    pattern: ID('cat'),
    optional: true,
    description: 'Audit the assets of this category.',
  })
  category_id?: string;
  @Field(
    {
      type: 'array',
      items: { type: 'string', pattern: ID('ast') },
      minItems: 1,
      maxItems: AUDIT_ASSET_IDS_MAX,
      uniqueItems: true,
    },
    [
      IsArray({ message: 'asset_ids must be a list of asset ids' }),
      ArrayMinSize(1, { message: 'asset_ids must name at least one asset' }),
      ArrayMaxSize(AUDIT_ASSET_IDS_MAX, {
        message: `asset_ids must name at most ${AUDIT_ASSET_IDS_MAX} assets`,
      }),
      ArrayUnique({ message: 'asset_ids must name each asset once' }),
      IsString({ each: true, message: 'each of asset_ids must be an asset id (ast_...)' }),
      Matches(new RegExp(ID('ast')), {
        each: true,
        message: 'each of asset_ids must be an asset id (ast_...)',
      }),
    ],
    {
      optional: true,
      description: `Audit these assets, 1 to ${AUDIT_ASSET_IDS_MAX}, each once.`,
    },
  )
  asset_ids?: string[];
  @InstantField({ optional: true, description: 'When it should be done by, in the future.' })
  due_at?: string;
}

/**
 * Body of POST /audits/{id}/scans: exactly one of `asset_tag`, `serial_number` and
 * `asset_id`, and where the scanner is.
 */
export class AuditScanInput {
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) asset_tag?: string;
  @TextField({ min: 1, max: 200, notBlank: true, optional: true }) serial_number?: string;
  @TextField({ pattern: ID('ast'), optional: true }) asset_id?: string;
  @TextField({
    pattern: ID('loc'),
    optional: true,
    description:
      "Where the asset was seen: the audit's location or a place under it (any place of the " +
      "workspace for an audit by category or by assets). Default: the audit's location.",
  })
  location_id?: string;
}

/** The console's scan body: a tag or a serial number as a barcode scanner types it. */
export class ConsoleAuditScanInput {
  @TextField({ min: 1, max: 200, notBlank: true, description: 'An asset tag or serial number.' })
  code!: string;
  @TextField({ pattern: ID('loc'), optional: true, description: 'Where the asset was seen.' })
  location_id?: string;
}

/** Body of POST /audits/{id}/complete. */
export class CompleteAuditInput {
  @flag(
    'move_found',
    'true: every found asset moves to where it was scanned (the scan’s location, else the ' +
      'audit’s), `asset.updated` each. Default false.',
  )
  move_found?: boolean;
  @flag(
    'mark_missing_lost',
    'true: every missing asset goes to status `lost`, `asset.updated` each. Default false.',
  )
  mark_missing_lost?: boolean;
}

/** Query of GET /audits. */
export class AuditListQuery {
  @EnumField(AUDIT_STATUSES, { optional: true }) status?: AuditStatus;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}

/** Query of GET /audits/{id}/scans. */
export class AuditScanListQuery {
  @EnumField(AUDIT_SCAN_OUTCOMES, { optional: true }) outcome?: AuditScanOutcome;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}

/** Query of GET /audits/{id}/items. */
export class AuditItemListQuery {
  @EnumField(AUDIT_ITEM_STATES, {
    optional: true,
    description:
      'expected: the assets fixed at start; found: those scanned (misplaced included); ' +
      'missing: those not scanned (yet); unexpected: scanned, not expected; misplaced: ' +
      'found at another place than theirs at start. Default expected.',
  })
  state?: AuditItemState;
  @TextField({ min: 1, max: 7, optional: true, description: 'Page number, from 1.' })
  page?: string;
  @TextField({ min: 1, max: 3, optional: true, description: 'Items per page, 1 to 200.' })
  pageSize?: string;
}
