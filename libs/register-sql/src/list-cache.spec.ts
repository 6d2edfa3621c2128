import { ListCache, type ListKey } from './list-cache';

const key = (over: Partial<ListKey> = {}): ListKey => ({
  kind: 'register.assets',
  workspaceId: 'wsp_a',
  status: null,
  search: 'brand-3',
  assignedToId: null,
  warrantyExpiresBefore: null,
  locationId: null,
  includeChildren: false,
  categoryId: null,
  ...over,
});

describe('ListCache', () => {
  it('answers a total only at the version it was counted at', () => {
    const cache = new ListCache();
    cache.setTotal(key(), '7', 220_000);
    expect(cache.total(key(), '7')).toBe(220_000);
    expect(cache.total(key(), '8')).toBeNull();
    // The stale entry is gone: going back to the old version finds nothing either.
    expect(cache.total(key(), '7')).toBeNull();
  });

  it('keeps lists apart by table, workspace and every filter', () => {
    const cache = new ListCache();
    cache.setTotal(key(), '1', 5);
    for (const other of [
      key({ kind: 'register.people' }),
      key({ workspaceId: 'wsp_b' }),
      key({ status: 'active' }),
      key({ search: 'Brand-3' }),
      key({ assignedToId: 'per_1' }),
    ]) {
      expect(cache.total(other, '1')).toBeNull();
    }
  });

  it('remembers page ends by page size and page, and drops them with a new version', () => {
    const cache = new ListCache();
    cache.setPageEnd(key(), '3', 200, 1, 'ast_200');
    cache.setPageEnd(key(), '3', 50, 1, 'ast_50');
    expect(cache.pageEnd(key(), '3', 200, 1)).toBe('ast_200');
    expect(cache.pageEnd(key(), '3', 50, 1)).toBe('ast_50');
    expect(cache.pageEnd(key(), '3', 200, 2)).toBeNull();
    cache.setTotal(key(), '4', 1);
    expect(cache.pageEnd(key(), '4', 200, 1)).toBeNull();
  });

  it('keeps the most recent 16 page ends of a list', () => {
    const cache = new ListCache();
    for (let page = 1; page <= 20; page++) cache.setPageEnd(key(), '1', 10, page, `ast_${page}`);
    expect(cache.pageEnd(key(), '1', 10, 4)).toBeNull();
    expect(cache.pageEnd(key(), '1', 10, 5)).toBe('ast_5');
    expect(cache.pageEnd(key(), '1', 10, 20)).toBe('ast_20');
  });

  it('holds at most 10,000 lists, dropping the least recently used', () => {
    const cache = new ListCache();
    for (let i = 0; i < 10_000; i++) cache.setTotal(key({ search: `term ${i}` }), '1', i);
    // Used now, so the next insertion drops `term 1` instead.
    expect(cache.total(key({ search: 'term 0' }), '1')).toBe(0);
    cache.setTotal(key({ search: 'one more' }), '1', 1);
    expect(cache.size).toBe(10_000);
    expect(cache.total(key({ search: 'term 0' }), '1')).toBe(0);
    expect(cache.total(key({ search: 'term 1' }), '1')).toBeNull();
  });
});

it('keeps nothing when made with room for no list', () => {
  const cache = new ListCache(0);
  cache.setTotal(key(), '1', 5);
  cache.setPageEnd(key(), '1', 10, 1, 'ast_1');
  expect(cache.total(key(), '1')).toBeNull();
  expect(cache.pageEnd(key(), '1', 10, 1)).toBeNull();
  expect(cache.size).toBe(0);
});
