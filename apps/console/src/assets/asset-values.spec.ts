import { assetLink, defaultDueDate, dueDateToSend, isStatus } from './asset-values';

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
