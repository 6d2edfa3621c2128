import {
  ASSET_UNPAGED_MAX,
  UNPAGED_MAX_BYTES,
  type AssetSummary,
  type PersonSummary,
} from '@custodian/contracts';
import { jsonArrayWithin } from './json-array-within';

const MiB = 1024 * 1024;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const same = <T>(item: T) => item;

/** What the serialiser must give: JSON.stringify of the longest prefix that fits, as bytes. */
function expected<T>(items: T[], maxBytes: number): { json: Buffer; count: number } {
  for (let count = items.length; count >= 0; count--) {
    const json = Buffer.from(JSON.stringify(items.slice(0, count)));
    if (json.length <= maxBytes || count === 0) return { json, count };
  }
  throw new Error('unreachable');
}

/**
 * The largest text a field takes: 200 characters of U+0001, which JSON writes as `\u0001`,
 * 6 bytes each (a 4-byte code point is only 4). U+0000 is refused; other C0 controls are not.
 */
const widest = (characters: number) => '\u0001'.repeat(characters);
const ULID = '01jd8x6q4f7k2m9n3p5r7t9v1w';
const AT = '2026-11-22T10:15:00.000Z';

/** A list row with every field at its limit (ids and timestamps are the service's own). */
const WORST_ASSET: AssetSummary = {
  id: `ast_${ULID}`,
  name: widest(200),
  sku: widest(200),
  status: 'maintenance',
  brand: widest(200),
  model: widest(200),
  serial_number: widest(200),
  category: { name: widest(200) },
  assigned_to: { id: `per_${ULID}`, name: widest(200) },
  updated_at: AT,
};

/** E-mail: isEmail caps the local part at 64 bytes and the domain at 254. */
const WORST_PERSON: PersonSummary = {
  id: `per_${ULID}`,
  full_name: widest(200),
  email: `${'a'.repeat(64)}@${'d'.repeat(250)}.com`,
  employee_number: widest(64),
  status: 'inactive',
  updated_at: AT,
};

describe('the unpaged lists, worst case', () => {
  it('one asset row is at most 8,649 bytes of JSON, so 10,000 would be about 86 MB', () => {
    expect(jsonBytes(WORST_ASSET)).toBe(8_649);
    expect(jsonBytes(WORST_ASSET) * ASSET_UNPAGED_MAX).toBeGreaterThan(16 * MiB);
  });

  it('one person row is at most about 2 KB (2,049 bytes), so 10,000 would be about 20 MB', () => {
    expect(jsonBytes(WORST_PERSON)).toBe(2_049);
    expect(jsonBytes(WORST_PERSON) * ASSET_UNPAGED_MAX).toBeGreaterThan(16 * MiB);
  });

  it('cuts 10,000 worst-case rows to what fits in UNPAGED_MAX_BYTES (15 MiB)', () => {
    const rows = Array.from({ length: ASSET_UNPAGED_MAX }, () => WORST_ASSET);
    const { json, count } = jsonArrayWithin(rows, same, UNPAGED_MAX_BYTES);
    expect(json.length).toBeLessThanOrEqual(UNPAGED_MAX_BYTES);
    expect(json.length + 1 + jsonBytes(WORST_ASSET)).toBeGreaterThan(UNPAGED_MAX_BYTES);
    expect(count).toBe(1_818);
    expect(json.equals(Buffer.from(JSON.stringify(rows.slice(0, count))))).toBe(true);
  });
});

describe('jsonArrayWithin', () => {
  it('gives JSON.stringify of a list that fits, byte for byte, each row through map', () => {
    const rows = [
      { id: 1, name: 'a' },
      { id: 2, name: 'ü' },
      { id: 3, name: '\u{1F600}' },
    ];
    // Field order is the mapped object's, as JSON.stringify of the mapped list writes it.
    const map = (row: { id: number; name: string }) => ({ name: row.name, id: row.id, none: null });
    const { json, count } = jsonArrayWithin(rows, map, 1_000);
    expect(json.toString('utf8')).toBe(JSON.stringify(rows.map(map)));
    expect(count).toBe(3);
  });

  it('writes an empty list, or one whose first item does not fit, as []', () => {
    expect(jsonArrayWithin([], same, 100).json.toString()).toBe('[]');
    expect(jsonArrayWithin(['aaaa'], same, 7)).toEqual({ json: Buffer.from('[]'), count: 0 });
  });

  it('keeps the longest prefix whose JSON array fits, counting brackets and commas', () => {
    const rows = ['aaaa', 'bbbb', 'cccc']; // ["aaaa","bbbb","cccc"]: 6 + 7 + 7 + 2 bytes
    const kept = (maxBytes: number) => jsonArrayWithin(rows, same, maxBytes).json.toString();
    expect(kept(22)).toBe('["aaaa","bbbb","cccc"]');
    expect(kept(21)).toBe('["aaaa","bbbb"]');
    expect(kept(15)).toBe('["aaaa","bbbb"]');
    expect(kept(14)).toBe('["aaaa"]');
    expect(kept(8)).toBe('["aaaa"]');
    expect(kept(7)).toBe('[]');
  });

  it('counts bytes of UTF-8, not UTF-16 units', () => {
    const rows = ['\u{1F600}', '\u{1F600}']; // each item 6 bytes of JSON, 4 units
    expect(jsonArrayWithin(rows, same, 15).count).toBe(2);
    expect(jsonArrayWithin(rows, same, 14).count).toBe(1);
  });

  it('cuts exactly at every bound, for text of 1 to 4 bytes a character and escapes', () => {
    // ASCII, 2-byte é, 3-byte €, 4-byte 😀, an escaped control, a quote, a lone surrogate
    // (written \udc00 by JSON.stringify), so that each bound falls inside every kind.
    const texts = ['a', 'é', '€', '\u{1F600}', '\u0001', '"', '\udc00', 'zé€\u{1F600}'];
    const rows = Array.from({ length: 40 }, (_, i) => ({ i, text: texts[i % texts.length]! }));
    const full = jsonBytes(rows);
    for (let maxBytes = 0; maxBytes <= full + 1; maxBytes++) {
      const got = jsonArrayWithin(rows, same, maxBytes);
      const want = expected(rows, maxBytes);
      expect({ maxBytes, count: got.count }).toEqual({ maxBytes, count: want.count });
      expect(got.json.equals(want.json)).toBe(true);
    }
  });

  it('cuts exactly across chunks of 500 rows: at, before and after a chunk boundary', () => {
    const rows = Array.from({ length: 1_600 }, (_, i) => `r${i}·€`); // 2- and 3-byte characters
    const end = (count: number) => jsonBytes(rows.slice(0, count));
    for (const count of [499, 500, 501, 999, 1_000, 1_001, 1_500, 1_599, 1_600]) {
      for (const maxBytes of [end(count) - 1, end(count), end(count) + 1]) {
        const got = jsonArrayWithin(rows, same, maxBytes);
        const want = expected(rows, maxBytes);
        expect({ maxBytes, count: got.count }).toEqual({ maxBytes, count: want.count });
        expect(got.json.equals(want.json)).toBe(true);
      }
    }
  });

  it('keeps whole chunks and maps each row once', () => {
    const rows = Array.from({ length: 1_234 }, (_, i) => i);
    let calls = 0;
    const map = (row: number) => {
      calls++;
      return { row };
    };
    const { json, count } = jsonArrayWithin(rows, map, 1e9);
    expect(count).toBe(1_234);
    expect(calls).toBe(1_234);
    expect(json.toString()).toBe(JSON.stringify(rows.map((row) => ({ row }))));
  });
});
