import { formatRow, ledgerLine, lineFails, type WindowFacts } from './ledger';
import type { Attempt, WriteRecord } from './load';

const FAULT_AT = 10_000;

function attempt(startedAt: number, status: number | null, endedAt = startedAt + 50): Attempt {
  return { startedAt, endedAt, gateway: 'http://127.0.0.1:1/api/v1', status };
}

function write(key: string, attempts: Attempt[], assetId?: string): WriteRecord {
  const last = attempts.at(-1)?.status ?? null;
  return {
    key,
    window: 'w1',
    startedAt: attempts[0]?.startedAt ?? 0,
    attempts,
    outcome: last !== null && last < 300 ? 'acked' : last === 503 ? 'gave_up' : 'refused',
    ...(assetId ? { assetId } : {}),
  };
}

function facts(overrides: Partial<WindowFacts>): WindowFacts {
  return {
    fault: 'a fault',
    faultAt: FAULT_AT,
    writes: [],
    rows: [],
    received: new Map(),
    failedDeliveries: new Set(),
    receiverFailed: false,
    exits: [],
    notes: [],
    failures: [],
    ...overrides,
  };
}

const once = (eventId: string) => ({ eventId, deliveries: new Map([[`dlv_${eventId}`, 1]]) });

describe('ledgerLine', () => {
  it('owes one event per stored asset and counts the ones never received as missing', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1'), write('k2', [attempt(2, 201)], 'ast_2')],
        rows: [
          { key: 'k1', id: 'ast_1', createdAt: 1 },
          { key: 'k2', id: 'ast_2', createdAt: 2 },
        ],
        received: new Map([['ast_1', once('evt_1')]]),
      }),
    );
    expect(line).toMatchObject({ acked: 2, expected: 2, delivered: 1, missing: 1, givenUp: 0 });
    expect(lineFails(line)).toBe(true);
  });

  it('excuses a failed delivery only while the receiver itself was refusing', () => {
    const base = {
      writes: [write('k1', [attempt(1, 201)], 'ast_1')],
      rows: [{ key: 'k1', id: 'ast_1', createdAt: 1 }],
      failedDeliveries: new Set(['ast_1']),
    };
    const receiverDown = ledgerLine(facts({ ...base, receiverFailed: true }));
    expect(receiverDown).toMatchObject({ givenUp: 1, missing: 0 });
    expect(lineFails(receiverDown)).toBe(false);
    expect(ledgerLine(facts(base))).toMatchObject({ givenUp: 1, missing: 1 });
  });

  it('counts a key stored twice, and an acknowledged asset that is not stored', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1'), write('k2', [attempt(2, 201)], 'ast_9')],
        rows: [
          { key: 'k1', id: 'ast_1', createdAt: 1 },
          { key: 'k1', id: 'ast_1b', createdAt: 3 },
        ],
      }),
    );
    expect(line).toMatchObject({ appliedTwice: 1, ackedAbsent: 1 });
    // Both rows of k1 owe an event, and so does the acknowledged ast_9.
    expect(line.expected).toBe(3);
  });

  it('calls a 5xx ambiguous only when the asset already existed as it came back', () => {
    const line = ledgerLine(
      facts({
        writes: [
          // 504 after the asset was created: the write had been applied.
          write('k1', [attempt(100, 504, 500), attempt(600, 201)], 'ast_1'),
          // 503 before the retry created it: not applied then.
          write('k2', [attempt(100, 503, 150), attempt(400, 201)], 'ast_2'),
        ],
        rows: [
          { key: 'k1', id: 'ast_1', createdAt: 200 },
          { key: 'k2', id: 'ast_2', createdAt: 420 },
        ],
        received: new Map([
          ['ast_1', once('evt_1')],
          ['ast_2', once('evt_2')],
        ]),
      }),
    );
    expect(line.ambiguous).toBe(1);
    expect(line.missing).toBe(0);
  });

  it('counts extra receipts of one delivery id as duplicates, not as missing', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1')],
        rows: [{ key: 'k1', id: 'ast_1', createdAt: 1 }],
        received: new Map([['ast_1', { eventId: 'evt_1', deliveries: new Map([['dlv_1', 3]]) }]]),
      }),
    );
    expect(line).toMatchObject({ delivered: 1, duplicates: 2, missing: 0 });
    expect(lineFails(line)).toBe(false);
  });

  it('recovers at the first acknowledged attempt sent after the fault', () => {
    const line = ledgerLine(
      facts({
        writes: [
          // Sent before the fault: does not count, however late it came back.
          write('k1', [attempt(FAULT_AT - 10, 201, FAULT_AT + 100)], 'ast_1'),
          write('k2', [
            attempt(FAULT_AT + 20, null),
            attempt(FAULT_AT + 900, 201, FAULT_AT + 1_500),
          ]),
        ],
      }),
    );
    expect(line.recoverySeconds).toBe(1.5);
    expect(ledgerLine(facts({})).recoverySeconds).toBeNull();
  });

  it('fails the line for an app that exited or a failed check, and prints both', () => {
    const line = ledgerLine(
      facts({
        exits: [{ app: 'register', code: 1, signal: null, at: FAULT_AT }],
        failures: ['X-Quota-Used went back from 10 to 3'],
      }),
    );
    expect(lineFails(line)).toBe(true);
    expect(formatRow(line)).toContain('register (code 1)');
    expect(formatRow(line)).toContain('FAILED: X-Quota-Used went back from 10 to 3');
  });
});
