import {
  MAX_UTF8_BYTES_PER_CHARACTER,
  codePointLength,
  utf8ByteCap,
  utf8ByteLength,
} from './text-length';

describe('codePointLength', () => {
  it.each([
    ['empty', '', 0],
    ['ASCII', 'Laptop', 6],
    ['two-byte Latin', 'Müller', 6],
    ['three-byte CJK', '東京', 2],
    ['a surrogate pair (emoji)', '\u{1F600}', 1],
    ['emoji + VS16 (one glyph)', '\u{1F600}\uFE0F', 2],
    ['text + VS15', '\u2764\uFE0E', 2],
    ['stacked variation selectors', 'a\uFE0F\uFE0F\uFE0F', 4],
    ['e + combining acute (one grapheme)', 'e\u0301', 2],
    ['a zalgo grapheme', 'e' + '\u0301'.repeat(50), 51],
    ['a flag (two regional indicators)', '\u{1F1E9}\u{1F1EA}', 2],
    ['a ZWJ family', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 5],
    ['a lone high surrogate', 'a\uD800b', 3],
    ['a lone low surrogate', '\uDC00', 1],
    ['a low then a high surrogate (no pair)', '\uDC00\uD800', 2],
  ])('%s', (_label, text, expected) => {
    expect(codePointLength(text)).toBe(expected);
    // The same count as iterating the string (which walks code points).
    expect(codePointLength(text)).toBe([...text].length);
  });
});

describe('utf8ByteLength', () => {
  it.each([
    ['ASCII', 'abc', 3],
    ['U+00FC', '\u00FC', 2],
    ['U+FE0F', '\uFE0F', 3],
    ['U+10FFFF', '\u{10FFFF}', 4],
    ['emoji + VS16', '\u{1F600}\uFE0F', 7],
    ['a lone surrogate (as U+FFFD)', '\uD800', 3],
  ])('%s', (_label, text, expected) => {
    expect(utf8ByteLength(text)).toBe(expected);
  });
});

describe('the byte cap follows from the character limit', () => {
  it('takes at most 4 bytes per code point, whatever the code point', () => {
    // One code point of each UTF-8 length, at the edges of the ranges and around surrogates.
    const samples = [0x1, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfe0f, 0xffff, 0x10000];
    for (const code of [...samples, 0x1f600, 0x10ffff]) {
      const text = String.fromCodePoint(code);
      expect(utf8ByteLength(text)).toBeLessThanOrEqual(MAX_UTF8_BYTES_PER_CHARACTER);
    }
  });

  it('so 200 characters are at most 800 bytes, reached only by four-byte code points', () => {
    expect(utf8ByteCap(200)).toBe(800);
    const widest = '\u{10FFFF}'.repeat(200);
    expect(codePointLength(widest)).toBe(200);
    expect(utf8ByteLength(widest)).toBe(utf8ByteCap(200));
  });
});
