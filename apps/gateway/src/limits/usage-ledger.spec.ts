import { UsageLedger } from './usage-ledger';

const MONTH = '2026-11';

describe('UsageLedger', () => {
  it('sends unsent requests with one call only, and takes them back if they did not arrive', () => {
    const ledger = new UsageLedger();
    ledger.countUnsent('hash', 'key_1', MONTH, 2);
    ledger.countUnsent('hash', 'key_1', MONTH, 1);

    const carried = ledger.carry('hash', MONTH);
    expect(carried).toEqual({ keyId: 'key_1', generation: '', seen: 0, unsent: 3 });
    // A concurrent request of the same key carries none of them.
    expect(ledger.carry('hash', MONTH).unsent).toBe(0);

    ledger.giveBack('hash', MONTH, carried);
    expect(ledger.carry('hash', MONTH).unsent).toBe(3);
  });

  it('carries nothing for a key it never heard of', () => {
    expect(new UsageLedger().carry('hash', MONTH)).toEqual({
      keyId: null,
      generation: '',
      seen: 0,
      unsent: 0,
    });
  });

  it('keeps the highest count Redis answered, and the generation of the latest answer', () => {
    const ledger = new UsageLedger();
    ledger.observe('hash', 'key_1', MONTH, 'g1', 9);
    ledger.observe('hash', 'key_1', MONTH, 'g1', 7);
    ledger.observe('hash', 'key_1', MONTH, 'g2', 8);
    expect(ledger.carry('hash', MONTH)).toMatchObject({ generation: 'g2', seen: 9 });
  });

  it('forgets an entry only once it is quiet and Postgres holds all it knows', () => {
    const ledger = new UsageLedger();
    ledger.observe('seen', 'key_1', MONTH, 'g1', 5);
    ledger.countUnsent('unsent', 'key_2', MONTH, 1);
    ledger.observe('held', 'key_3', MONTH, 'g1', 4);
    for (const entry of ledger.all()) ledger.confirm(entry, 4);

    ledger.prune(0);
    expect(ledger.size).toBe(3);
    ledger.prune(Date.now() + 1);
    expect(ledger.all().map((entry) => entry.keyId)).toEqual(['key_1', 'key_2']);
  });
});
