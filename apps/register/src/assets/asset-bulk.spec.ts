import { DomainError, type BulkAssetInput } from '@custodian/contracts';
import { bulkChange, chunksOf, countOutcomes, decide, type BulkAssetRow } from './asset-bulk';

const body = (fields: Partial<BulkAssetInput>): BulkAssetInput =>
  ({ ids: ['ast_1'], ...fields }) as BulkAssetInput;

const row: BulkAssetRow = {
  id: 'ast_1',
  status: 'active',
  location_id: 'loc_1',
  category_id: null,
  assigned_to_id: null,
  assigned_name: null,
  custody_due_at: null,
};

describe('bulkChange', () => {
  it('takes exactly one field with update, and names the fields otherwise', () => {
    expect(bulkChange(body({ action: 'update', status: 'retired' }))).toEqual({
      action: 'update',
      field: 'status',
      status: 'retired',
    });
    expect(bulkChange(body({ action: 'update', location: 'Store' }))).toEqual({
      action: 'update',
      field: 'location',
      input: { location: 'Store' },
    });
    expect(bulkChange(body({ action: 'update', category_id: null }))).toEqual({
      action: 'update',
      field: 'category',
      input: { category_id: null },
    });
    expect(() => bulkChange(body({ action: 'update' }))).toThrow(
      'status, location_id, location, category_id, category: give exactly one of them with action update',
    );
    expect(() =>
      bulkChange(body({ action: 'update', location_id: 'loc_1', category: 'x' })),
    ).toThrow(/\(got location_id, category\)$/);
    expect(() => bulkChange(body({ action: 'update', status: 'lost', person_id: 'p' }))).toThrow(
      'person_id: not taken with action update',
    );
  });

  it('needs person_id with check_out', () => {
    expect(
      bulkChange(body({ action: 'check_out', person_id: 'per_1', due_at: '2026-12-01T00:00:00Z' })),
    ).toEqual({ action: 'check_out', personId: 'per_1', dueAt: new Date('2026-12-01T00:00:00Z') });
    expect(() => bulkChange(body({ action: 'check_out' }))).toThrow(
      'person_id is required with action check_out',
    );
  });

  it('takes nothing else with check_in and delete', () => {
    expect(bulkChange(body({ action: 'check_in' }))).toEqual({ action: 'check_in' });
    expect(() => bulkChange(body({ action: 'delete', status: 'lost' }))).toThrow(
      'status: not taken with action delete',
    );
  });
});

describe('decide', () => {
  it('answers unchanged where the asset already is so', () => {
    expect(decide(row, { action: 'update', field: 'status', status: 'active' })).toBe('unchanged');
    expect(decide(row, { action: 'update', field: 'status', status: 'lost' })).toBe('apply');
    expect(decide(row, { action: 'update', field: 'location', input: {} }, 'loc_1')).toBe(
      'unchanged',
    );
    expect(decide(row, { action: 'update', field: 'category', input: {} }, 'cat_1')).toBe('apply');
    expect(decide(row, { action: 'check_in' })).toBe('unchanged');
    expect(decide(row, { action: 'delete' })).toBe('apply');
  });

  it('refuses a check-out of an asset someone else holds, and leaves one held by the person', () => {
    const held = { ...row, assigned_to_id: 'per_2', assigned_name: 'Grace Hopper' };
    const refusal = decide(held, { action: 'check_out', personId: 'per_1', dueAt: null });
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).message).toBe(
      'Asset ast_1 is checked out to Grace Hopper; check it in before checking it out to someone else',
    );
    expect(decide(held, { action: 'check_out', personId: 'per_2', dueAt: null })).toBe('unchanged');
    const due = new Date('2026-12-01T00:00:00Z');
    expect(decide(held, { action: 'check_out', personId: 'per_2', dueAt: due })).toBe('apply');
    expect(
      decide(
        { ...held, custody_due_at: due },
        { action: 'check_out', personId: 'per_2', dueAt: due },
      ),
    ).toBe('unchanged');
    expect(decide(held, { action: 'check_in' })).toBe('apply');
  });
});

describe('chunksOf and countOutcomes', () => {
  it('cuts the sorted ids into chunks', () => {
    expect(chunksOf(['c', 'a', 'e', 'b', 'd'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('counts every outcome', () => {
    expect(
      countOutcomes([
        { id: 'a', outcome: 'updated' },
        { id: 'b', outcome: 'updated' },
        { id: 'c', outcome: 'refused', status: 409, message: 'no' },
      ]),
    ).toEqual({ updated: 2, unchanged: 0, not_found: 0, refused: 1 });
  });
});
