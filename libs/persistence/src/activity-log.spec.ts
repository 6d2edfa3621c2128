import { changedCustomFields, changedFields } from './activity-log';

const FIELDS = {
  name: (record: { name: string; size: number | null }) => record.name,
  size: (record: { name: string; size: number | null }) => record.size,
};

describe('changedFields', () => {
  it('lists the fields that differ as text, in the order given', () => {
    expect(changedFields({ name: 'Desk', size: 2 }, { name: 'Desk', size: 3 }, FIELDS)).toEqual([
      { field: 'size', from: '2', to: '3' },
    ]);
    expect(changedFields({ name: 'Desk', size: 2 }, { name: 'Desk', size: 2 }, FIELDS)).toEqual([]);
  });

  it('reads a record that did not exist as every field empty', () => {
    expect(changedFields(null, { name: 'Desk', size: null }, FIELDS)).toEqual([
      { field: 'name', from: null, to: 'Desk' },
    ]);
    expect(changedFields({ name: 'Desk', size: 1 }, null, FIELDS)).toEqual([
      { field: 'name', from: 'Desk', to: null },
      { field: 'size', from: '1', to: null },
    ]);
  });
});

describe('changedCustomFields', () => {
  it('names each key of either version once, by key, values as JSON text', () => {
    expect(
      changedCustomFields(
        { cost: 10, leased: true, gone: 'x' },
        { cost: 12, leased: true, added: '2026-03-01' },
      ),
    ).toEqual([
      { field: 'custom_fields.added', from: null, to: '2026-03-01' },
      { field: 'custom_fields.cost', from: '10', to: '12' },
      { field: 'custom_fields.gone', from: 'x', to: null },
    ]);
  });
});
