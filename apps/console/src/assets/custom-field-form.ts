import type { CustomField } from '@custodian/console-client';

/** What the form holds per custom field: the text of its input (`''` is no value). */
export type CustomFieldTexts = Record<string, string>;

/** The inputs' starting texts: an asset's values, or nothing for a new one. */
export function customFieldTexts(
  fields: CustomField[],
  values: Record<string, unknown> = {},
): CustomFieldTexts {
  return Object.fromEntries(
    fields.map((field) => {
      const value = values[field.key];
      // Values are text, numbers, booleans or dates as text (the register checks them).
      const text =
        typeof value === 'string'
          ? value
          : typeof value === 'number' || typeof value === 'boolean'
            ? String(value)
            : '';
      return [field.key, text];
    }),
  );
}

/** A field's text as the API takes its value (null: none); the register checks it again. */
export function customFieldValue(field: CustomField, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  switch (field.type) {
    case 'number':
      return Number(trimmed);
    case 'boolean':
      return trimmed === 'true';
    case 'date':
    case 'select':
    case 'text':
      return trimmed;
  }
}

/**
 * `custom_fields` of a write: for a new asset the values given; for an edit only the keys that
 * changed (null clears one), so a field defined after the asset was made is left alone.
 */
export function customFieldChanges(
  fields: CustomField[],
  texts: CustomFieldTexts,
  current: Record<string, unknown> | null,
): Record<string, unknown> | undefined {
  const changes: Record<string, unknown> = {};
  for (const field of fields) {
    const value = customFieldValue(field, texts[field.key] ?? '');
    if (current === null) {
      if (value !== null) changes[field.key] = value;
    } else if (value !== (current[field.key] ?? null)) {
      changes[field.key] = value;
    }
  }
  return Object.keys(changes).length > 0 ? changes : undefined;
}
