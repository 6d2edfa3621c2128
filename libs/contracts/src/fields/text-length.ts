import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * How text limits are measured (docs/decisions.md, "Sizes"): a "character" is a Unicode code
 * point, as JSON Schema's `maxLength` and Postgres's `char_length` count. Not UTF-16 code units
 * (an emoji would count twice), and not graphemes (one grapheme may hold any number of
 * combining marks or variation selectors, so a grapheme count bounds nothing). validator.js's
 * `isLength`, behind class-validator's `Length` and `MaxLength`, counted neither: it dropped
 * each variation selector that follows a character, so 200 "characters" could take 1,400 bytes.
 */

/** A code point takes 1 to 4 bytes of UTF-8, so N characters are at most 4 × N bytes. */
export const MAX_UTF8_BYTES_PER_CHARACTER = 4;

/** The Unicode code points of `text`; a lone surrogate (refused elsewhere) counts as one. */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/** The bytes of `text` in UTF-8 (a lone surrogate as U+FFFD's three). */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The most bytes of UTF-8 a text of at most `characters` code points can take. */
export function utf8ByteCap(characters: number): number {
  return characters * MAX_UTF8_BYTES_PER_CHARACTER;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** `name must be between 1 and 200 characters`, `... at most 200 ...`, `... at least 1 ...`. */
export function textLengthMessage(name: string, min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) {
    return `${name} must be between ${min} and ${max} characters`;
  }
  return max !== undefined
    ? `${name} must be at most ${max} characters`
    : `${name} must be at least ${min ?? 0} characters`;
}

/**
 * A string of `min` to `max` code points (either may be left out); in place of class-validator's
 * `Length`, `MinLength` and `MaxLength`, which measure differently. Non-strings pass: the type
 * check reports them. With `{each: true}` each item of an array is measured.
 */
export function TextLength(
  min: number | undefined,
  max: number | undefined,
  options: ValidationOptions = {},
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'textLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true;
          const length = codePointLength(value);
          return (min === undefined || length >= min) && (max === undefined || length <= max);
        },
        defaultMessage: (args?: ValidationArguments) =>
          textLengthMessage(
            options.each ? `each value in ${args?.property ?? ''}` : (args?.property ?? ''),
            min,
            max,
          ),
      },
    },
    options,
  );
}
