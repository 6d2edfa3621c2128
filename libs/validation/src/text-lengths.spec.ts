import {
  CreateAssetInput,
  CreateCustomFieldInput,
  CreatePersonInput,
  DomainError,
  InvitationAcceptInput,
  UpdateAssetInput,
} from '@custodian/contracts';
import { validateInput } from './validation';

function message(type: new () => object, raw: unknown): string | null {
  try {
    validateInput(type, raw);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
}

/** Emoji (a surrogate pair) + VS16: one glyph, two code points, 7 bytes of UTF-8. */
const EMOJI_VS16 = '\u{1F600}\uFE0F';
/** The largest code point: 4 bytes of UTF-8, 2 UTF-16 units. */
const FOUR_BYTES = '\u{10FFFF}';

describe('text limits are counted in Unicode code points', () => {
  it('counts an emoji with a variation selector as two characters', () => {
    // 200 glyphs, 400 code points, 1,400 bytes: once counted as 200 characters.
    expect(message(CreateAssetInput, { name: EMOJI_VS16.repeat(200) })).toBe(
      'name must be between 1 and 200 characters',
    );
    expect(message(CreateAssetInput, { name: EMOJI_VS16.repeat(100) })).toBeNull();
  });

  it('counts a variation selector after any character, so stacking them does not hide bytes', () => {
    expect(message(CreateAssetInput, { name: 'a', sku: 'a\uFE0F'.repeat(101) })).toBe(
      'sku must be at most 200 characters',
    );
    expect(message(UpdateAssetInput, { brand: 'a\uFE0E'.repeat(100) })).toBeNull();
  });

  it('counts every combining mark: a grapheme of 201 code points is over 200', () => {
    const zalgo = 'e' + '\u0301'.repeat(200);
    expect(message(CreatePersonInput, { full_name: zalgo })).toBe(
      'full_name must be between 1 and 200 characters',
    );
    expect(message(CreatePersonInput, { full_name: 'e\u0301'.repeat(100) })).toBeNull();
  });

  it('counts a surrogate pair as one character: 200 four-byte characters (800 bytes) pass', () => {
    expect(message(CreateAssetInput, { name: FOUR_BYTES.repeat(200) })).toBeNull();
    expect(message(CreateAssetInput, { name: FOUR_BYTES.repeat(201) })).toBe(
      'name must be between 1 and 200 characters',
    );
  });

  it('applies to every text limit: 64-character fields, e-mail, CLI inputs', () => {
    expect(message(CreateAssetInput, { name: 'a', asset_tag: 'T\uFE0F'.repeat(33) })).toBe(
      'asset_tag must be between 1 and 64 characters',
    );
    expect(
      message(CreatePersonInput, { full_name: 'a', employee_number: 'E\uFE0F'.repeat(33) }),
    ).toBe('employee_number must be at most 64 characters');
    expect(
      message(CreateCustomFieldInput, {
        workspace: 'wsp_1',
        key: 'colour',
        label: EMOJI_VS16.repeat(101),
        type: 'text',
      }),
    ).toBe('label must be between 1 and 200 characters');
    expect(message(InvitationAcceptInput, { token: 't\uFE0F'.repeat(65) })).toBe(
      'token must be between 1 and 128 characters',
    );
  });

  it('bounds select options: at most 200 characters each', () => {
    expect(
      message(CreateCustomFieldInput, {
        workspace: 'wsp_1',
        key: 'colour',
        label: 'Colour',
        type: 'select',
        options: ['red', 'x'.repeat(201)],
      }),
    ).toBe('each value in options must be between 1 and 200 characters');
  });
});
