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
import { TextLength } from '../fields/text-length';
import {
  CUSTOM_FIELD_OPTION_MAX,
  CUSTOM_FIELD_TYPES,
  type CustomFieldType,
} from './custom-field.constants';

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
