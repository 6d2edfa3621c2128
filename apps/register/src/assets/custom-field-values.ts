import {
  CUSTOM_FIELDS_MAX_BYTES,
  CUSTOM_FIELD_TEXT_MAX,
  DomainError,
  codePointLength,
  utf8ByteLength,
} from '@custodian/contracts';
import type { CustomFieldDefinition } from '../custom-fields/custom-field.store';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The custom-field values an asset ends up with after a write: `given` merged over `current`
 * (null removes a key; `given` null clears them all), checked against the workspace's
 * definitions by type, options and required-ness, and bounded in bytes as a whole. Errors
 * name `custom_fields.<key>` (or `custom_fields` for the whole).
 */
export function applyCustomFields(
  definitions: CustomFieldDefinition[],
  current: Record<string, unknown>,
  given: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const byKey = new Map(definitions.map((definition) => [definition.key, definition]));
  // Null-prototype objects: a key such as `toString` must not find Object.prototype's.
  const next: Record<string, unknown> = Object.assign(
    Object.create(null) as Record<string, unknown>,
    given === null ? {} : current,
  );
  for (const [key, value] of Object.entries(given ?? {})) {
    const definition = byKey.get(key);
    if (!definition) {
      throw invalid(`custom_fields.${key} is not a custom field of this workspace`);
    }
    if (value === null) delete next[key];
    else next[key] = checkValue(definition, value);
  }
  for (const definition of definitions) {
    if (definition.required && !Object.hasOwn(next, definition.key)) {
      throw invalid(`custom_fields.${definition.key} is required`);
    }
  }
  const values = { ...next };
  if (utf8ByteLength(JSON.stringify(values)) > CUSTOM_FIELDS_MAX_BYTES) {
    throw invalid(`custom_fields must be at most ${CUSTOM_FIELDS_MAX_BYTES} bytes as JSON`);
  }
  return values;
}

function checkValue(definition: CustomFieldDefinition, value: unknown): unknown {
  const field = `custom_fields.${definition.key}`;
  switch (definition.type) {
    case 'text':
      if (typeof value !== 'string' || codePointLength(value) > CUSTOM_FIELD_TEXT_MAX) {
        throw invalid(`${field} must be a string of at most ${CUSTOM_FIELD_TEXT_MAX} characters`);
      }
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw invalid(`${field} must be a number`);
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`${field} must be true or false`);
      return value;
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || !isCalendarDate(value)) {
        throw invalid(`${field} must be a date as YYYY-MM-DD`);
      }
      return value;
    case 'select':
      if (typeof value !== 'string' || !(definition.options ?? []).includes(value)) {
        throw invalid(`${field} must be one of ${(definition.options ?? []).join(', ')}`);
      }
      return value;
  }
}

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function invalid(message: string): DomainError {
  return new DomainError('invalid_input', message);
}
