import { repeatOfForm, repeatText, subjectOf } from './reminder-values';

describe('reminder values', () => {
  it('says how a reminder repeats', () => {
    expect(repeatText(null)).toBe('Once');
    expect(repeatText({ every: 1, unit: 'month' })).toBe('Every month');
    expect(repeatText({ every: 6, unit: 'month' })).toBe('Every 6 months');
    expect(repeatText({ every: 2, unit: 'week' })).toBe('Every 2 weeks');
  });

  it('links what it is about', () => {
    const none = { asset: null, person: null, license: null };
    expect(subjectOf(none)).toBeNull();
    expect(
      subjectOf({ ...none, asset: { id: 'ast_1', name: 'Van', asset_tag: 'AT-000001' } }),
    ).toEqual({ to: '/assets/ast_1', name: 'Van' });
    expect(subjectOf({ ...none, license: { id: 'lic_1', name: 'Figma' } })).toEqual({
      to: '/licenses/lic_1',
      name: 'Figma',
    });
  });

  it('reads the repeat fields, refusing what the API would', () => {
    expect(repeatOfForm({ repeats: false, every: 'x', unit: 'day' })).toEqual({ repeat: null });
    expect(repeatOfForm({ repeats: true, every: '6', unit: 'month' })).toEqual({
      repeat: { every: 6, unit: 'month' },
    });
    for (const every of ['0', '1.5', '366', '']) {
      expect(repeatOfForm({ repeats: true, every, unit: 'week' })).toEqual({
        problem: 'Repeat every: a whole number from 1 to 365.',
      });
    }
  });
});
