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
