import { DomainError } from '@custodian/contracts';
import type { CustomFieldDefinition } from '../custom-fields/custom-field.store';
import { applyCustomFields } from './custom-field-values';

const NOTE: CustomFieldDefinition = { key: 'note', type: 'text', options: null, required: false };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('expected a refusal');
}

describe('applyCustomFields: text values', () => {
  it('counts 2,000 characters as code points: 2,000 emoji (4,000 UTF-16 units) pass', () => {
    const emoji = '\u{1F600}'.repeat(2_000);
    expect(applyCustomFields([NOTE], {}, { note: emoji })).toEqual({ note: emoji });
  });

  it('refuses 2,001 characters, naming the field', () => {
    expect(refusal(() => applyCustomFields([NOTE], {}, { note: 'a\uFE0F'.repeat(1_001) }))).toBe(
      'custom_fields.note must be a string of at most 2000 characters',
    );
  });
});

describe('applyCustomFields: the whole object', () => {
  // Definitions are not limited in number, so values that are each in bounds can add up.
  const many: CustomFieldDefinition[] = Array.from({ length: 10 }, (_, i) => ({
    ...NOTE,
    key: `note_${i}`,
  }));
  const full = '\u{10FFFF}'.repeat(2_000); // 8,000 bytes of UTF-8

  it('takes values up to 64 KiB of JSON in all', () => {
    const given = Object.fromEntries(many.slice(0, 8).map((field) => [field.key, full]));
    expect(Object.keys(applyCustomFields(many, {}, given))).toHaveLength(8);
  });

  it('refuses more, counting the stored values a PATCH merges with', () => {
    const stored = Object.fromEntries(many.slice(0, 8).map((field) => [field.key, full]));
    expect(refusal(() => applyCustomFields(many, stored, { note_8: full }))).toBe(
      'custom_fields must be at most 65536 bytes as JSON',
    );
    // Removing values makes room again.
    expect(applyCustomFields(many, stored, { note_0: null, note_8: full })).not.toHaveProperty(
      'note_0',
    );
  });
});
