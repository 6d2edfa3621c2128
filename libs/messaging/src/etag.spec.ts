import { DomainError } from '@custodian/contracts';
import { assertIfMatch, etagOf, parseIfMatch } from './etag';

describe('etagOf', () => {
  it('is the same for the same representation, whatever the order of its keys', () => {
    const a = { id: 'ast_1', name: 'Drill', custom_fields: { b: 1, a: [1, { y: 2, x: 1 }] } };
    const b = { custom_fields: { a: [1, { x: 1, y: 2 }], b: 1 }, name: 'Drill', id: 'ast_1' };
    expect(etagOf(a)).toBe(etagOf(b));
    expect(etagOf(a)).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('is what the wire carries: a Date as its ISO string, an undefined field absent', () => {
    const at = new Date('2026-11-28T10:00:00.000Z');
    expect(etagOf({ id: 'x', at, gone: undefined })).toBe(
      etagOf({ id: 'x', at: '2026-11-28T10:00:00.000Z' }),
    );
  });

  it('changes with any value, also deep and in order of arrays', () => {
    const base = etagOf({ id: 'x', tags: ['a', 'b'], n: 1 });
    expect(etagOf({ id: 'x', tags: ['b', 'a'], n: 1 })).not.toBe(base);
    expect(etagOf({ id: 'x', tags: ['a', 'b'], n: 2 })).not.toBe(base);
    expect(etagOf({ id: 'x', tags: ['a', 'b'], n: 1, extra: null })).not.toBe(base);
  });
});

describe('parseIfMatch', () => {
  it('takes *, one tag or a list, weak tags kept as sent', () => {
    expect(parseIfMatch(' * ')).toEqual(['*']);
    expect(parseIfMatch('"abc"')).toEqual(['"abc"']);
    expect(parseIfMatch('"a", W/"b"')).toEqual(['"a"', 'W/"b"']);
  });

  it('refuses what is not entity tags', () => {
    for (const header of ['abc', '"a" "b"', '', '"a",', '*, "a"', '"a b"']) {
      expect(parseIfMatch(header)).toBeNull();
    }
    expect(parseIfMatch(Array.from({ length: 21 }, (_, i) => `"${i}"`).join(','))).toBeNull();
  });
});

describe('assertIfMatch', () => {
  const record = { id: 'ast_1', name: 'Drill' };

  it('passes without If-Match, with *, or with the current tag among others', () => {
    expect(() => assertIfMatch(undefined, record, 'Asset ast_1')).not.toThrow();
    expect(() => assertIfMatch(['*'], record, 'Asset ast_1')).not.toThrow();
    expect(() => assertIfMatch(['"old"', etagOf(record)], record, 'Asset ast_1')).not.toThrow();
  });

  it('refuses a stale or weak tag as precondition_failed naming the record and its tag now', () => {
    for (const stale of [['"old"'], [`W/${etagOf(record)}`]]) {
      let caught: unknown;
      try {
        assertIfMatch(stale, record, 'Asset ast_1');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DomainError);
      expect((caught as DomainError).code).toBe('precondition_failed');
      expect((caught as DomainError).message).toContain(
        `Asset ast_1 changed since you read it (If-Match ${stale[0]}; it is now ${etagOf(record)})`,
      );
    }
  });
});
