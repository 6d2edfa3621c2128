import {
  EMPTY_FORM,
  costValue,
  isMaintenanceStatus,
  maintenanceInput,
  recordTitle,
  resolution,
} from './maintenance-values';

describe('maintenance values', () => {
  it('reads a typed cost as the API takes it, or refuses it', () => {
    expect(costValue(' 1,299.5 ')).toBe('1299.5');
    expect(costValue('189')).toBe('189');
    expect(costValue('')).toBe('');
    expect(costValue('12.345')).toBeNull();
    expect(costValue('-3')).toBeNull();
    expect(costValue('ten')).toBeNull();
  });

  it('builds the body of a new record with only what was typed', () => {
    expect(maintenanceInput({ ...EMPTY_FORM, title: '  Battery ' })).toEqual({
      input: { title: 'Battery', type: 'repair' },
    });
    expect(
      maintenanceInput({
        title: 'Service',
        type: 'service',
        notes: ' Yearly ',
        scheduledFor: '2026-12-02',
        cost: '80',
        setAssetStatus: true,
        repeatMonths: ' 6 ',
      }),
    ).toEqual({
      input: {
        title: 'Service',
        type: 'service',
        notes: 'Yearly',
        scheduled_for: '2026-12-02',
        cost: '80',
        set_asset_status: true,
        repeat: { every: 6, unit: 'month' },
      },
    });
    expect(maintenanceInput({ ...EMPTY_FORM, title: 'x', repeatMonths: '0' })).toEqual({
      problem: 'Remind again every: a whole number of months from 1 to 365.',
    });
    expect(maintenanceInput({ ...EMPTY_FORM, title: ' ' })).toEqual({
      problem: 'Give it a title.',
    });
    expect(maintenanceInput({ ...EMPTY_FORM, title: 'x', cost: '1.234' })).toHaveProperty(
      'problem',
    );
  });

  it('builds a resolve: a cost left empty keeps the record’s', () => {
    expect(resolution('', '')).toEqual({ resolution: {} });
    expect(resolution(' Replaced ', '210.50')).toEqual({
      resolution: { notes: 'Replaced', cost: '210.50' },
    });
    expect(resolution('x', 'abc')).toHaveProperty('problem');
  });

  it('knows its statuses and words a record', () => {
    expect(isMaintenanceStatus('open')).toBe(true);
    expect(isMaintenanceStatus('closed')).toBe(false);
    expect(isMaintenanceStatus(null)).toBe(false);
    expect(recordTitle({ title: 'Battery', type: 'repair' })).toBe('Battery (repair)');
  });
});
