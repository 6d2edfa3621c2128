import { hasResults, importTitle, isRunning, shownColumns, startText } from './import-values';

describe('import values', () => {
  it('shows a row by the columns that name its record, then the first others', () => {
    expect(
      shownColumns({ type: 'assets', columns: ['Colour', 'serial_number', 'name', 'notes'] }),
    ).toEqual(['serial_number', 'name', 'Colour']);
    expect(shownColumns({ type: 'people', columns: ['email', 'department'] })).toEqual([
      'email',
      'department',
    ]);
    expect(shownColumns({ type: 'assets', columns: ['a', 'b', 'c', 'd'] })).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('says what starting will do, refused rows skipped', () => {
    expect(startText({ plan: { create: 2, update: 1, refuse: 1 } })).toBe(
      'Importing 3 rows: 2 to create, 1 to update. 1 row is refused and skipped.',
    );
    expect(startText({ plan: { create: 1_000, update: 0, refuse: 0 } })).toBe(
      'Importing 1,000 rows: 1,000 to create, 0 to update.',
    );
  });

  it('names an import by its file, and knows when it runs and when it has results', () => {
    expect(importTitle({ filename: 'laptops.csv', type: 'assets' })).toBe('laptops.csv');
    expect(importTitle({ filename: null, type: 'people' })).toBe('Import of people');
    expect(isRunning('planning')).toBe(true);
    expect(isRunning('planned')).toBe(false);
    expect(hasResults('planned')).toBe(false);
    expect(hasResults('cancelled')).toBe(true);
  });
});
