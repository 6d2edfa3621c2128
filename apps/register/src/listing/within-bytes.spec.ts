import {
  ASSET_UNPAGED_MAX,
  UNPAGED_MAX_BYTES,
  type AssetSummary,
  type PersonSummary,
} from '@custodian/contracts';
import { withinBytes } from './within-bytes';

const MiB = 1024 * 1024;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

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
    const kept = withinBytes(rows, UNPAGED_MAX_BYTES);
    const bytes = jsonBytes(kept);
    expect(bytes).toBeLessThanOrEqual(UNPAGED_MAX_BYTES);
    expect(bytes + 1 + jsonBytes(WORST_ASSET)).toBeGreaterThan(UNPAGED_MAX_BYTES);
    expect(kept).toHaveLength(1_818);
  });
});

describe('withinBytes', () => {
  it('keeps a list that fits, whole and in order', () => {
    const rows = [{ a: 1 }, { b: 'ü' }, { c: '\u{1F600}' }];
    expect(withinBytes(rows, jsonBytes(rows))).toEqual(rows);
  });

  it('keeps the longest prefix whose JSON array fits, counting brackets and commas', () => {
    const rows = ['aaaa', 'bbbb', 'cccc']; // ["aaaa","bbbb","cccc"]: 6 + 7 + 7 + 2 bytes
    expect(withinBytes(rows, 22)).toEqual(rows);
    expect(withinBytes(rows, 21)).toEqual(['aaaa', 'bbbb']);
    expect(jsonBytes(['aaaa', 'bbbb'])).toBe(15);
    expect(withinBytes(rows, 15)).toEqual(['aaaa', 'bbbb']);
    expect(withinBytes(rows, 14)).toEqual(['aaaa']);
    expect(withinBytes(rows, 7)).toEqual([]);
  });

  it('counts bytes of UTF-8, not UTF-16 units', () => {
    const rows = ['\u{1F600}', '\u{1F600}']; // each item 6 bytes of JSON, 4 units
    expect(withinBytes(rows, 15)).toEqual(rows);
    expect(withinBytes(rows, 14)).toEqual(['\u{1F600}']);
  });
});
