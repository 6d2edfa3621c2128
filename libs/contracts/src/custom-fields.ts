import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
} from 'class-validator';
import { TextLength } from './fields/text-length';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Characters of a `text` custom-field value. */
export const CUSTOM_FIELD_TEXT_MAX = 2_000;
/** Characters of a `select` option (a stored value, so as long as a name). */
export const CUSTOM_FIELD_OPTION_MAX = 200;
/**
 * Bytes of an asset's `custom_fields` as JSON (UTF-8), all values together. Each value is
 * bounded, but a workspace may define any number of fields; 64 KiB holds eight text values of
 * 2,000 four-byte characters.
 */
export const CUSTOM_FIELDS_MAX_BYTES = 65_536;

/** What the admin CLI sends to define a custom field for a workspace's assets. */
export class CreateCustomFieldInput {
  @IsString() @TextLength(1, 64) workspace!: string;

  @Matches(/^(?!(constructor|prototype|__proto__)$)[a-z][a-z0-9_]{0,62}$/, {
    message:
      'key must be lower-case letters, digits and _, starting with a letter, and not constructor or prototype',
  })
  key!: string;

  @IsString() @TextLength(1, 200) label!: string;

  @IsIn(CUSTOM_FIELD_TYPES, { message: `type must be one of ${CUSTOM_FIELD_TYPES.join(', ')}` })
  type!: CustomFieldType;

  /** Comma-separated on the CLI; required for `select`, refused otherwise. */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((option) => option.trim())
          .filter(Boolean)
      : value,
  )
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @TextLength(1, CUSTOM_FIELD_OPTION_MAX, { each: true })
  options?: string[];

  /** A bare `--required` flag on the CLI; `true` / `false` as text too. */
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}

export interface CustomFieldView {
  id: string;
  workspace_id: string;
  key: string;
  label: string;
  type: CustomFieldType;
  options: string[] | null;
  required: boolean;
  created_at: string;
}
