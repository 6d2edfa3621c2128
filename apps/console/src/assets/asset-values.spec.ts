import type { Asset } from '@custodian/console-client';
import {
  assetDifferences,
  assetLink,
  defaultDueDate,
  dueDateToSend,
  isStatus,
} from './asset-values';

describe('asset values', () => {
  it('sends a local due date as the instant it names, and nothing for an empty field', () => {
    const local = '2026-12-01T17:00';
    expect(dueDateToSend(local)).toBe(new Date(2026, 11, 1, 17, 0).toISOString());
    expect(dueDateToSend('')).toBeNull();
    expect(dueDateToSend('not a date')).toBeNull();
  });

  it('proposes 17:00 two weeks ahead, across a month end', () => {
    expect(defaultDueDate(new Date(2026, 10, 26, 9, 30))).toBe('2026-12-10T17:00');
    expect(defaultDueDate(new Date(2026, 0, 31, 23, 0), 1)).toBe('2026-02-01T17:00');
  });

  it('knows the statuses the API filters on', () => {
    expect(isStatus('maintenance')).toBe(true);
    expect(isStatus('broken')).toBe(false);
    expect(isStatus(null)).toBe(false);
  });

  it("links a label to the asset's console page, its id escaped", () => {
    expect(assetLink('https://custodian.example', 'ast_01J')).toBe(
      'https://custodian.example/console/assets/ast_01J',
    );
    expect(assetLink('http://127.0.0.1:3000', 'a/b')).toBe(
      'http://127.0.0.1:3000/console/assets/a%2Fb',
    );
  });
});

describe('assetDifferences', () => {
  const base = {
    id: 'ast_1',
    name: 'Drill',
    asset_tag: 'AT-1',
    serial_number: null,
    brand: 'Makita',
    model: null,
    sku: null,
    category: null,
    location: null,
    status: 'active',
    condition: null,
    purchase_date: null,
    warranty_expires_on: null,
    assigned_to: null,
    custom_fields: { cost_center: 'IT' },
    updated_at: '2026-11-28T10:00:00.000Z',
  } as unknown as Asset;

  it('names each field a person edits that differs, as it reads, custom fields by key', () => {
    const after = {
      ...base,
      brand: 'Bosch',
      status: 'maintenance',
      category: { id: 'cat_1', name: 'Tools' },
      custom_fields: { cost_center: 'Ops', shelf: 'B2' },
      updated_at: '2026-11-28T11:00:00.000Z',
    } as unknown as Asset;
    expect(assetDifferences(base, after)).toEqual([
      { label: 'Brand', before: 'Makita', after: 'Bosch' },
      { label: 'Category', before: '—', after: 'Tools' },
      { label: 'Status', before: 'Active', after: 'In maintenance' },
      { label: 'cost_center', before: 'IT', after: 'Ops' },
      { label: 'shelf', before: '—', after: 'B2' },
    ]);
  });

  it('finds nothing when only bookkeeping moved', () => {
    expect(assetDifferences(base, { ...base, updated_at: 'later' })).toEqual([]);
  });
});
