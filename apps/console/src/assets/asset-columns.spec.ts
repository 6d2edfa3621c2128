import {
  DEFAULT_COLUMNS,
  chosenColumns,
  exportHref,
  saveColumns,
  toggleColumn,
} from './asset-columns';

function memory(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  } as Storage;
}

describe('asset list columns', () => {
  it('starts with the default columns, and keeps a choice in the list order', () => {
    const storage = memory();
    expect(chosenColumns(storage)).toEqual(DEFAULT_COLUMNS);
    saveColumns(storage, ['updated_at', 'brand']);
    expect(chosenColumns(storage)).toEqual(['brand', 'updated_at']);
  });

  it('ignores what it cannot read', () => {
    const storage = memory();
    storage.setItem('custodian.assetColumns', '{not json');
    expect(chosenColumns(storage)).toEqual(DEFAULT_COLUMNS);
    storage.setItem('custodian.assetColumns', '["nonsense"]');
    expect(chosenColumns(storage)).toEqual([]);
    expect(chosenColumns(null)).toEqual(DEFAULT_COLUMNS);
  });

  it('turns a column on or off in place', () => {
    expect(toggleColumn(['status', 'updated_at'], 'brand')).toEqual([
      'status',
      'brand',
      'updated_at',
    ]);
    expect(toggleColumn(['status', 'brand'], 'status')).toEqual(['brand']);
  });
});

describe('exportHref', () => {
  it('asks the export for the list as shown: its filters and chosen columns', () => {
    expect(exportHref('mac book', 'active', ['status', 'brand'])).toBe(
      '/console/api/assets/export?search=mac+book&status=active&columns=id%2Cname%2Casset_tag%2Cstatus%2Cbrand',
    );
    expect(exportHref(null, undefined, [])).toBe(
      '/console/api/assets/export?columns=id%2Cname%2Casset_tag',
    );
  });
});
