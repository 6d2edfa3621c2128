import { Type, type SchemaOptions, type TNull, type TSchema, type TUnion } from '@sinclair/typebox';

/**
 * Building blocks of the response and event schemas. Every schema is self-contained (no `$id`,
 * no `$ref`): nested objects are inlined, and sharing happens by reusing these constants.
 */

/** `T` or `null`. */
export function Nullable<T extends TSchema>(
  schema: T,
  options: SchemaOptions = {},
): TUnion<[T, TNull]> {
  return Type.Union<[T, TNull]>([schema, Type.Null()], options);
}

/** `{type: string, enum: [...]}` for a constant list of values, typed as their union. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
) {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** Every timestamp the service writes: ISO 8601 UTC with milliseconds and `Z`. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';

export function Timestamp(description?: string) {
  return Type.String({
    format: 'date-time',
    pattern: TIMESTAMP_PATTERN,
    ...(description === undefined ? {} : { description }),
  });
}

/** A calendar date, `YYYY-MM-DD`. */
export function CalendarDate(description?: string) {
  return Type.String({
    format: 'date',
    ...(description === undefined ? {} : { description }),
  });
}

/**
 * An opaque id with its type prefix (`ast_` + a lower-case ULID for ids the service makes).
 * Only the prefix is part of the contract.
 */
export function PrefixedId(prefix: string, description: string) {
  return Type.String({ pattern: `^${prefix}_`, description });
}

/** `{id, name}`: a record referred to by id, with its name as it is now. */
export function NamedRefOf(prefix: string, what: string, options: SchemaOptions = {}) {
  return Type.Object(
    {
      id: PrefixedId(prefix, `Id of the ${what}.`),
      name: Type.String({ description: `Name of the ${what}.` }),
    },
    { additionalProperties: false, ...options },
  );
}
