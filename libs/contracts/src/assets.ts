import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import type { Static } from '@sinclair/typebox';
import type { AssetSchema, AssetSummarySchema, NamedRefSchema } from './schemas/assets';

export const ASSET_STATUSES = [
  'active',
  'maintenance',
  'retired',
  'lost',
  'stolen',
  'inactive',
] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

export const ASSET_PAGE_SIZE_DEFAULT = 50;
export const ASSET_PAGE_SIZE_MAX = 200;
export const ASSET_UNPAGED_MAX = 10_000;

const STATUS_MESSAGE = `status must be one of ${ASSET_STATUSES.join(', ')}`;
const TEXT_MAX = 200;
/** These fields are stored trimmed, so whitespace alone would be stored as an empty string. */
const NOT_BLANK = /\S/;
const notBlank = (field: string) => Matches(NOT_BLANK, { message: `${field} must not be blank` });

/** Body of POST /assets. Unknown fields are refused by the validator (whitelist). */
export class CreateAssetInput {
  @IsString()
  @Length(1, TEXT_MAX, { message: `name must be between 1 and ${TEXT_MAX} characters` })
  @notBlank('name')
  name!: string;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) sku?: string | null;

  @IsOptional() @IsIn(ASSET_STATUSES, { message: STATUS_MESSAGE }) status?: AssetStatus;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) brand?: string | null;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) model?: string | null;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) serial_number?: string | null;

  @IsOptional()
  @IsString()
  @Length(1, 64, { message: 'asset_tag must be between 1 and 64 characters' })
  @notBlank('asset_tag')
  asset_tag?: string;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('category') category?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('location') location?: string | null;

  @IsOptional() @IsObject() custom_fields?: Record<string, unknown> | null;

  /** Checks the asset out to this person (of the same workspace). */
  @IsOptional() @IsString() @Length(1, 64) assigned_to_id?: string | null;
}

/**
 * Body of PATCH /assets/{id}: every field optional, `null` clears, except the fields that an
 * asset cannot be without (name, status, asset_tag), for which `null` is refused.
 */
export class UpdateAssetInput {
  @ValidateIf((o: UpdateAssetInput) => o.name !== undefined)
  @IsString()
  @Length(1, TEXT_MAX, { message: `name must be between 1 and ${TEXT_MAX} characters` })
  @notBlank('name')
  name?: string;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) sku?: string | null;

  @ValidateIf((o: UpdateAssetInput) => o.status !== undefined)
  @IsIn(ASSET_STATUSES, { message: STATUS_MESSAGE })
  status?: AssetStatus;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) brand?: string | null;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) model?: string | null;

  @IsOptional() @IsString() @MaxLength(TEXT_MAX) serial_number?: string | null;

  @ValidateIf((o: UpdateAssetInput) => o.asset_tag !== undefined)
  @IsString()
  @Length(1, 64, { message: 'asset_tag must be between 1 and 64 characters' })
  @notBlank('asset_tag')
  asset_tag?: string;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('category') category?: string | null;

  @IsOptional() @IsString() @Length(1, TEXT_MAX) @notBlank('location') location?: string | null;

  @IsOptional() @IsObject() custom_fields?: Record<string, unknown> | null;

  /** A person id checks the asset out to them; `null` checks it in. */
  @IsOptional() @IsString() @Length(1, 64) assigned_to_id?: string | null;
}

/** Query of GET /assets, as the gateway received it (strings, unparsed). */
export type RawQuery = Record<string, string | string[] | undefined>;

export interface AssetListQuery {
  page: number | null;
  pageSize: number;
  status: AssetStatus | null;
  search: string | null;
}

export type NamedRef = Static<typeof NamedRefSchema>;

/** An asset as list results show it (spec section 2.1). */
export type AssetSummary = Static<typeof AssetSummarySchema>;

/** An asset as the single fetch shows it; also the body of create and update responses. */
export type AssetDetail = Static<typeof AssetSchema>;

/** `{data, page, pageSize, total}`: a list route asked for a `page` (schema: `pageSchema`). */
export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
}
