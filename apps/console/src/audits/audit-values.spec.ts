import { isLive, outcomeText, scopeText } from './audit-values';

describe('audit values', () => {
  it('says what an audit covers', () => {
    const none = { location: null, include_children: false, category: null, asset_count: null };
    expect(
      scopeText({ ...none, location: { id: 'loc_1', name: 'HQ' }, include_children: true }),
    ).toBe('HQ and the places in it');
    expect(scopeText({ ...none, location: { id: 'loc_1', name: 'Room 1' } })).toBe('Room 1');
    expect(scopeText({ ...none, category: { id: 'cat_1', name: 'Laptops' } })).toBe(
      'Category Laptops',
    );
    expect(scopeText({ ...none, asset_count: 1 })).toBe('1 listed asset');
  });

  it('spells outcomes', () => {
    expect(outcomeText({ outcome: 'found', repeated: false, location: null })).toBe('found');
    expect(outcomeText({ outcome: 'unexpected', repeated: false, location: null })).toBe(
      'not expected in this audit',
    );
    expect(outcomeText({ outcome: 'found', repeated: true, location: null })).toBe(
      'already scanned in this audit',
    );
    expect(isLive('open')).toBe(true);
    expect(isLive('completed')).toBe(false);
  });
});
