import {
  ApiExtraModels,
  ApiProperty,
  getSchemaPath,
  type ApiPropertyOptions,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { TextLength, textLengthMessage } from './text-length';

/**
 * Field decorators of the contract classes: each states a field once and applies both the
 * class-validator checks (what the pipes and the tests enforce) and the @nestjs/swagger
 * @ApiProperty that documents the same constraints in the OpenAPI 3.1 document.
 */

/** A JSON Schema (OpenAPI 3.1) fragment: what the document says of one field. */
export type JsonSchema = Record<string, unknown>;

/** A class of the contract, as a nested field, a list item or an event's data. */
export type ContractClass = new () => object;

export interface FieldOptions {
  /** May be left out: not in `required`, and not checked when absent. */
  optional?: boolean;
  /** May be `null`: documented as `anyOf: [<schema>, {type: 'null'}]`. */
  nullable?: boolean;
  description?: string;
}

/** Every timestamp the service writes: ISO 8601 UTC with milliseconds and `Z`. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const TIMESTAMP = new RegExp(TIMESTAMP_PATTERN);
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One field: `schema` is its document schema (before null is added), `checks` its validators
 * in priority order. class-validator reports a field's failing constraints in the order they
 * were applied and the pipes name the last one, so the checks are applied in reverse: the first
 * written (the type check) is the one a message names.
 */
export function Field(
  schema: JsonSchema,
  checks: PropertyDecorator[],
  { optional = false, nullable = false, description }: FieldOptions = {},
): PropertyDecorator {
  let documented: JsonSchema = schema;
  if (nullable) documented = { anyOf: [schema, { type: 'null' }] };
  else if ('$ref' in schema) documented = { allOf: [schema] };
  const property = ApiProperty({
    ...documented,
    // Without a `type` @nestjs/swagger takes the design type, which for a nested class would
    // replace the schema; with a combinator it drops the `type` it is given.
    type: documented.type ?? 'object',
    description,
    required: !optional,
  } as ApiPropertyOptions);
  const decorators = [presence(optional, nullable), ...[...checks].reverse(), property];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/** What is skipped rather than checked: `undefined` for an optional field, `null` for a nullable. */
function presence(optional: boolean, nullable: boolean): PropertyDecorator {
  if (optional && nullable) return IsOptional();
  if (optional) return ValidateIf((_object, value) => value !== undefined);
  if (nullable) return ValidateIf((_object, value) => value !== null);
  return () => undefined;
}

/** A decorator that needs the field's name (for its messages). */
function named(build: (name: string) => PropertyDecorator): PropertyDecorator {
  return (target, key) => build(String(key))(target, key);
}

function defined(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

export interface TextOptions extends FieldOptions {
  /** At least this many characters (Unicode code points: see text-length.ts). */
  min?: number;
  /** At most this many characters, so at most 4 × max bytes of UTF-8. */
  max?: number;
  /** Must hold a non-space character (the field is stored trimmed). */
  notBlank?: boolean;
  /** A regular expression the text must match (not with `notBlank`). */
  pattern?: string;
}

export function TextField(options: TextOptions = {}): PropertyDecorator {
  const { min, max, notBlank = false, pattern } = options;
  return named((name) => {
    const checks = [IsString()];
    if (min !== undefined || max !== undefined) {
      checks.push(TextLength(min, max, { message: textLengthMessage(name, min, max) }));
    }
    if (notBlank) checks.push(Matches(/\S/, { message: `${name} must not be blank` }));
    if (pattern !== undefined) {
      checks.push(Matches(new RegExp(pattern), { message: `${name} must match ${pattern}` }));
    }
    const schema = { type: 'string', pattern: notBlank ? '\\S' : pattern, minLength: min };
    return Field(defined({ ...schema, maxLength: max }), checks, options);
  });
}

/** An id with its type prefix (`ast_` + a ULID for ids the service makes). */
export function IdField(prefix: string, description: string, options: FieldOptions = {}) {
  return TextField({ ...options, pattern: `^${prefix}_`, description });
}

export function EmailField(options: FieldOptions & { max: number }): PropertyDecorator {
  return named((name) =>
    Field(
      { type: 'string', format: 'email', maxLength: options.max },
      [
        IsString(),
        IsEmail({}, { message: `${name} must be an e-mail address` }),
        TextLength(undefined, options.max, {
          message: textLengthMessage(name, undefined, options.max),
        }),
      ],
      options,
    ),
  );
}

export function EnumField(values: readonly string[], options: FieldOptions = {}) {
  return named((name) =>
    Field(
      { type: 'string', enum: [...values] },
      [IsIn(values, { message: `${name} must be one of ${values.join(', ')}` })],
      options,
    ),
  );
}

/** Exactly this string. */
export function ConstField(value: string, options: FieldOptions = {}) {
  return named((name) =>
    Field(
      { type: 'string', const: value },
      [IsIn([value], { message: `${name} must be ${value}` })],
      options,
    ),
  );
}

export function IntField(options: FieldOptions & { min?: number; max?: number } = {}) {
  const { min, max } = options;
  const checks = [IsInt()];
  if (min !== undefined) checks.push(Min(min));
  if (max !== undefined) checks.push(Max(max));
  return Field(defined({ type: 'integer', minimum: min, maximum: max }), checks, options);
}

/** A timestamp as the service writes it: ISO 8601 UTC with milliseconds and `Z`. */
export function TimestampField(options: FieldOptions = {}) {
  return named((name) =>
    Field(
      { type: 'string', format: 'date-time', pattern: TIMESTAMP_PATTERN },
      [
        IsString(),
        Matches(TIMESTAMP, { message: `${name} must be a UTC timestamp with milliseconds` }),
        IsISO8601({ strict: true }, { message: `${name} must be a valid date and time` }),
      ],
      options,
    ),
  );
}

/**
 * An instant a client sends: ISO 8601 date and time with its offset (`Z` or `+02:00`),
 * seconds or milliseconds; the service answers it back as a TimestampField (UTC, `Z`).
 */
export function InstantField(options: FieldOptions = {}) {
  return named((name) =>
    Field(
      { type: 'string', format: 'date-time' },
      [
        IsString(),
        Matches(INSTANT, {
          message: `${name} must be a date and time with its offset, like 2026-12-01T17:00:00Z`,
        }),
        IsISO8601({ strict: true }, { message: `${name} must be a valid date and time` }),
      ],
      options,
    ),
  );
}

/** A calendar date, `YYYY-MM-DD`. */
export function DateField(options: FieldOptions = {}) {
  return named((name) =>
    Field(
      { type: 'string', format: 'date' },
      [
        IsString(),
        Matches(CALENDAR_DATE, { message: `${name} must be a date (YYYY-MM-DD)` }),
        IsISO8601({ strict: true }, { message: `${name} must be a valid date` }),
      ],
      options,
    ),
  );
}

/** An object whose keys are not part of the contract (custom fields, an event's data). */
export function OpenObjectField(options: FieldOptions = {}) {
  return Field({ type: 'object', additionalProperties: true }, [IsObject()], options);
}

/** An object of a contract class; its schema is the class's component. */
export function NestedField(model: ContractClass, options: FieldOptions = {}): PropertyDecorator {
  return nested(model, { $ref: getSchemaPath(model) }, [IsObject()], options);
}

/** An array of objects of a contract class. */
export function ListField(
  model: ContractClass,
  options: FieldOptions & { maxItems?: number } = {},
): PropertyDecorator {
  const { maxItems } = options;
  const schema = defined({ type: 'array', items: { $ref: getSchemaPath(model) }, maxItems });
  const checks = [IsArray()];
  if (maxItems !== undefined) checks.push(ArrayMaxSize(maxItems));
  return nested(model, schema, checks, options);
}

function nested(
  model: ContractClass,
  schema: JsonSchema,
  checks: PropertyDecorator[],
  options: FieldOptions,
): PropertyDecorator {
  const field = Field(schema, [...checks, ValidateNested()], options);
  return (target, key) => {
    // The $ref is written by hand, so the document is told about the class.
    ApiExtraModels(model)(target.constructor);
    Type(() => model)(target, key);
    field(target, key);
  };
}
