import type { CustomField } from '@custodian/console-client';
import { customFieldChanges, customFieldTexts, customFieldValue } from './custom-field-form';

const FIELDS: CustomField[] = [
  { key: 'cost', label: 'Cost', type: 'number', options: null, required: false },
  { key: 'leased', label: 'Leased', type: 'boolean', options: null, required: false },
  { key: 'bought', label: 'Bought', type: 'date', options: null, required: false },
  { key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'], required: true },
  { key: 'note', label: 'Note', type: 'text', options: null, required: false },
];

describe('custom field form', () => {
  it('reads values into input texts, a missing one as empty', () => {
    expect(customFieldTexts(FIELDS, { cost: 1200.5, leased: false, tier: 'gold' })).toEqual({
      cost: '1200.5',
      leased: 'false',
      bought: '',
      tier: 'gold',
      note: '',
    });
  });

  it('turns texts into typed values, blank into none', () => {
    expect(customFieldValue(FIELDS[0]!, ' 42 ')).toBe(42);
    expect(customFieldValue(FIELDS[1]!, 'false')).toBe(false);
    expect(customFieldValue(FIELDS[1]!, 'true')).toBe(true);
    expect(customFieldValue(FIELDS[2]!, '2026-03-01')).toBe('2026-03-01');
    expect(customFieldValue(FIELDS[4]!, '   ')).toBeNull();
  });

  it('sends a new asset what was given, and an edit only what changed', () => {
    const texts = { cost: '10', leased: '', bought: '', tier: 'gold', note: 'ok' };
    expect(customFieldChanges(FIELDS, texts, null)).toEqual({ cost: 10, tier: 'gold', note: 'ok' });
    expect(
      customFieldChanges(FIELDS, { ...texts, note: '' }, { cost: 10, tier: 'gold', note: 'ok' }),
    ).toEqual({ note: null });
    expect(customFieldChanges(FIELDS, texts, { cost: 10, tier: 'gold', note: 'ok' })).toBe(
      undefined,
    );
  });
});
