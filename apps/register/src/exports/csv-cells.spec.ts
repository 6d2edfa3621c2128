import { parse } from 'csv-parse/sync';
import { csvLines, plainCell, safeCell } from './csv-cells';
import { chooseColumns, decodeExportCursor, encodeExportCursor } from './export-query';

describe('CSV cells', () => {
  it('puts an apostrophe before what a spreadsheet would run, never before a number', () => {
    expect(safeCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(safeCell('+33 1 23 45')).toBe("'+33 1 23 45");
    expect(safeCell('@cmd')).toBe("'@cmd");
    expect(safeCell('-x')).toBe("'-x");
    expect(safeCell('-5')).toBe('-5');
    expect(safeCell('+1.5')).toBe('+1.5');
    expect(safeCell('Drill')).toBe('Drill');
  });

  it('takes the apostrophe off again on the way in, and only that one', () => {
    for (const value of ['=SUM(A1)', '@cmd', 'Drill', "'quoted'", '-5']) {
      expect(plainCell(safeCell(value))).toBe(value);
    }
  });

  it('writes RFC 4180 lines a parser reads back cell for cell', () => {
    const rows = [
      ['a,b', 'say "hi"', 'line\nbreak'],
      ['Ünïcode ✓', '', '=1+1'],
    ];
    const text = csvLines(rows);
    expect(text.endsWith('\r\n')).toBe(true);
    const back = parse(text);
    expect(back.map((row) => row.map(plainCell))).toEqual(rows);
  });
});

describe('export queries', () => {
  const known = ['id', 'name', 'status', 'cost_center'];

  it('takes columns in the order given, all of them without the parameter', () => {
    expect(chooseColumns(undefined, known)).toEqual(known);
    expect(chooseColumns(' status , name ', known)).toEqual(['status', 'name']);
  });

  it('names unknown and repeated columns', () => {
    expect(() => chooseColumns('name,colour,size', known)).toThrow(
      'columns names unknown columns: colour, size (the columns are id, name, status, cost_center)',
    );
    expect(() => chooseColumns('name,name', known)).toThrow('columns names name twice');
    expect(() => chooseColumns(' , ', known)).toThrow('columns must name a column');
  });

  it('round-trips its cursor and refuses one it did not make', () => {
    const cursor = { createdAt: '2026-11-28T10:00:00.123456Z', id: 'ast_01abc' };
    expect(decodeExportCursor(encodeExportCursor(cursor))).toEqual(cursor);
    expect(() => decodeExportCursor('garbage')).toThrow(
      'after must be the cursor of the previous chunk',
    );
  });
});
