import type { BulkAssetReply } from '@custodian/console-client';
import { bulkBody, bulkSummary, pageState, withPage, withRow } from './asset-bulk-values';

const rows = [
  { id: 'ast_1', name: 'Laptop 1' },
  { id: 'ast_2', name: 'Laptop 2' },
];

describe('the selection', () => {
  it('chooses rows one by one and a page at a time', () => {
    const one = withRow(new Map(), rows[0]!, true);
    expect(pageState(one, rows)).toBe('some');
    const all = withPage(one, rows, true);
    expect(pageState(all, rows)).toBe('all');
    expect([...all.keys()]).toEqual(['ast_1', 'ast_2']);
    expect(pageState(withPage(all, rows, false), rows)).toBe('none');
    expect(withRow(all, rows[1]!, false).size).toBe(1);
  });
});

describe('bulkBody', () => {
  it('sends one field per action', () => {
    const ids = ['ast_1'];
    expect(bulkBody(ids, { action: 'status', status: 'retired' })).toEqual({
      ids,
      action: 'update',
      status: 'retired',
    });
    expect(bulkBody(ids, { action: 'location', place: { id: 'loc_1', newName: null } })).toEqual({
      ids,
      action: 'update',
      location_id: 'loc_1',
    });
    expect(bulkBody(ids, { action: 'location', place: { id: null, newName: ' Shed ' } })).toEqual({
      ids,
      action: 'update',
      location: 'Shed',
    });
    expect(bulkBody(ids, { action: 'category', categoryId: null })).toEqual({
      ids,
      action: 'update',
      category_id: null,
    });
    expect(bulkBody(ids, { action: 'check_out', personId: 'per_1', dueAt: null })).toEqual({
      ids,
      action: 'check_out',
      person_id: 'per_1',
    });
    expect(
      bulkBody(ids, { action: 'check_out', personId: 'per_1', dueAt: '2031-06-30T15:00:00.000Z' }),
    ).toEqual({ ids, action: 'check_out', person_id: 'per_1', due_at: '2031-06-30T15:00:00.000Z' });
    expect(bulkBody(ids, { action: 'delete' })).toEqual({ ids, action: 'delete' });
  });
});

describe('bulkSummary', () => {
  it('counts the outcomes and gives each refusal by name', () => {
    const reply: BulkAssetReply = {
      action: 'delete',
      results: [
        { id: 'ast_1', outcome: 'updated' },
        {
          id: 'ast_2',
          outcome: 'refused',
          status: 409,
          message: 'Asset ast_2 is checked out to Ada; check it in before deleting it',
        },
        { id: 'ast_3', outcome: 'not_found', status: 404, message: 'Asset ast_3 not found' },
      ],
      counts: { updated: 1, unchanged: 0, not_found: 1, refused: 1 },
    };
    expect(bulkSummary(reply, new Map(rows.map((row) => [row.id, row.name])))).toEqual({
      headline: '1 asset moved to the bin, 1 refused, 1 not found.',
      problems: [
        {
          id: 'ast_2',
          name: 'Laptop 2',
          message: 'Asset ast_2 is checked out to Ada; check it in before deleting it',
        },
        { id: 'ast_3', name: 'ast_3', message: 'Asset ast_3 not found' },
      ],
    });
  });
});
