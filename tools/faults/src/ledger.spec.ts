import {
  explainRepeats,
  formatRow,
  formatTable,
  ledgerLine,
  lineFails,
  type AssetRow,
  type ReceivedFact,
  type WindowFacts,
} from './ledger';
import type { Attempt, WriteRecord } from './load';

const FAULT_AT = 10_000;
const LEASE_MS = 30_000;

function attempt(startedAt: number, status: number | null, endedAt = startedAt + 50): Attempt {
  return { startedAt, endedAt, gateway: 'http://127.0.0.1:1/api/v1', status };
}

function write(key: string, attempts: Attempt[], assetId?: string, dueAt?: number): WriteRecord {
  const last = attempts.at(-1)?.status ?? null;
  return {
    key,
    window: 'w1',
    startedAt: attempts[0]?.startedAt ?? 0,
    attempts,
    outcome: last !== null && last < 300 ? 'acked' : last === 503 ? 'gave_up' : 'refused',
    ...(assetId ? { assetId } : {}),
    ...(dueAt !== undefined ? { dueAt } : {}),
  };
}

function row(key: string, id: string, createdAt: number, dueAt: number | null = null): AssetRow {
  return { key, id, createdAt, checkedOut: dueAt !== null, dueAt };
}

function facts(overrides: Partial<WindowFacts>): WindowFacts {
  return {
    fault: 'a fault',
    faultAt: FAULT_AT,
    writes: [],
    rows: [],
    received: [],
    failedDeliveries: new Set(),
    receiverFailed: false,
    deliveryLog: new Map(),
    workerKills: [],
    leaseMs: LEASE_MS,
    exits: [],
    notes: [],
    failures: [],
    ...overrides,
  };
}

/** An event received once, at `at`, on a delivery of its own. */
function event(
  eventId: string,
  subjectId: string,
  name = 'asset.created',
  receipts: number[] = [1],
  dueAt: number | null = null,
): ReceivedFact {
  return {
    eventId,
    event: name,
    subjectId,
    dueAt,
    deliveries: new Map([[`dlv_${eventId}`, receipts]]),
  };
}

describe('ledgerLine', () => {
  it('owes one event per stored asset and counts the ones never received as missing', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1'), write('k2', [attempt(2, 201)], 'ast_2')],
        rows: [row('k1', 'ast_1', 1), row('k2', 'ast_2', 2)],
        received: [event('evt_1', 'ast_1')],
      }),
    );
    expect(line).toMatchObject({ acked: 2, expected: 2, delivered: 1, missing: 1, givenUp: 0 });
    expect(lineFails(line)).toBe(true);
  });

  it('owes a check-out its assignment.checked_out as well as its asset.created', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1', 5_000)],
        rows: [row('k1', 'ast_1', 1, 5_000)],
        received: [
          event('evt_1', 'ast_1'),
          event('evt_2', 'ast_1', 'assignment.overdue', [5_100], 5_000),
        ],
      }),
    );
    expect(line).toMatchObject({ expected: 2, delivered: 1, missing: 1 });
  });

  it('excuses a failed delivery only while the receiver itself was refusing', () => {
    const base = {
      writes: [write('k1', [attempt(1, 201)], 'ast_1')],
      rows: [row('k1', 'ast_1', 1)],
      failedDeliveries: new Set(['asset.created ast_1']),
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
        rows: [row('k1', 'ast_1', 1), row('k1', 'ast_1b', 3)],
      }),
    );
    expect(line).toMatchObject({ appliedTwice: 1, ackedAbsent: 1 });
    // Both rows of k1 owe an event, and so does the acknowledged ast_9.
    expect(line.expected).toBe(3);
  });

  it('fails a refused write that was stored all the same', () => {
    const stored = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, null), attempt(300, 422)], undefined, 200)],
        rows: [row('k1', 'ast_1', 100, 200)],
      }),
    );
    expect(stored.failures).toContain('1 writes refused but stored');
    const notStored = ledgerLine(
      facts({ writes: [write('k1', [attempt(1, null), attempt(300, 422)], undefined, 200)] }),
    );
    expect(lineFails(notStored)).toBe(false);
    expect(notStored.notes).toContain('1 check-outs refused, answered after their due date');
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
        rows: [row('k1', 'ast_1', 200), row('k2', 'ast_2', 420)],
        received: [event('evt_1', 'ast_1'), event('evt_2', 'ast_2')],
      }),
    );
    expect(line.ambiguous).toBe(1);
    expect(line.missing).toBe(0);
  });

  it('fails a write event fired twice under two event ids', () => {
    const line = ledgerLine(
      facts({
        writes: [write('k1', [attempt(1, 201)], 'ast_1')],
        rows: [row('k1', 'ast_1', 1)],
        received: [event('evt_1', 'ast_1'), event('evt_1b', 'ast_1')],
      }),
    );
    expect(line.failures).toContain('1 write events fired twice (distinct event ids)');
    expect(lineFails(line)).toBe(true);
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

describe('ledgerLine, time-based events', () => {
  const DUE = 20_000;
  /** Three check-outs due at DUE: their creation and check-out events all received. */
  function checkouts(overdue: ReceivedFact[], more: Partial<WindowFacts> = {}): WindowFacts {
    const ids = ['ast_1', 'ast_2', 'ast_3'];
    return facts({
      writes: ids.map((id, i) => write(`k${i}`, [attempt(i, 201)], id, DUE)),
      rows: ids.map((id, i) => row(`k${i}`, id, i, DUE)),
      received: [
        ...ids.flatMap((id) => [
          event(`created_${id}`, id),
          event(`out_${id}`, id, 'assignment.checked_out'),
        ]),
        ...overdue,
      ],
      ...more,
    });
  }
  const overdue = (eventId: string, subject: string, at = DUE + 300) =>
    event(eventId, subject, 'assignment.overdue', [at], DUE);

  it('passes when every check-out past its due date fired exactly one assignment.overdue', () => {
    const line = ledgerLine(
      checkouts([overdue('o1', 'ast_1'), overdue('o2', 'ast_2'), overdue('o3', 'ast_3')]),
    );
    expect(line).toMatchObject({ overdueDue: 3, overdueMissing: 0, overdueTwice: 0 });
    expect(line).toMatchObject({ expected: 6, delivered: 6, missing: 0 });
    expect(lineFails(line)).toBe(false);
  });

  it('counts a check-out whose overdue never came as missing, and fails', () => {
    const line = ledgerLine(checkouts([overdue('o1', 'ast_1'), overdue('o2', 'ast_2')]));
    expect(line).toMatchObject({ overdueDue: 3, overdueMissing: 1, missing: 0 });
    expect(lineFails(line)).toBe(true);
  });

  it('counts two overdue events (two event ids) for one check-out as fired twice, and fails', () => {
    const line = ledgerLine(
      checkouts([
        overdue('o1', 'ast_1'),
        overdue('o1b', 'ast_1', DUE + 600),
        overdue('o2', 'ast_2'),
        overdue('o3', 'ast_3'),
      ]),
    );
    expect(line).toMatchObject({ overdueMissing: 0, overdueTwice: 1 });
    expect(lineFails(line)).toBe(true);
    expect(formatRow(line)).toContain('| 3 | 0 | 1 |');
  });

  it('excuses an overdue given up only while the receiver was refusing', () => {
    const base = { failedDeliveries: new Set(['assignment.overdue ast_3']) };
    const overdues = [overdue('o1', 'ast_1'), overdue('o2', 'ast_2')];
    const refusing = ledgerLine(checkouts(overdues, { ...base, receiverFailed: true }));
    expect(refusing).toMatchObject({ overdueMissing: 0, overdueGivenUp: 1, givenUp: 0 });
    expect(lineFails(refusing)).toBe(false);
    expect(ledgerLine(checkouts(overdues, base))).toMatchObject({ overdueMissing: 1 });
  });

  it('fails an overdue received before its due date', () => {
    const line = ledgerLine(
      checkouts([overdue('o1', 'ast_1', DUE - 1), overdue('o2', 'ast_2'), overdue('o3', 'ast_3')]),
    );
    expect(line.failures).toContain('1 assignment.overdue received before their due date');
  });
});

describe('duplicate deliveries', () => {
  const KILL = 50_000;
  const kill = { worker: 'webhook-worker', at: KILL };
  const delivered = (startedAt: number) => ({ startedAt, durationMs: 20, statusCode: 200 });

  function duplicated(receipts: number[], more: Partial<WindowFacts>): WindowFacts {
    return facts({
      writes: [write('k1', [attempt(1, 201)], 'ast_1')],
      rows: [row('k1', 'ast_1', 1)],
      received: [event('evt_1', 'ast_1', 'asset.created', receipts)],
      ...more,
    });
  }

  it('explains a receipt the worker never recorded, killed with it in hand, sent again after', () => {
    const line = ledgerLine(
      duplicated([KILL - 5, KILL + LEASE_MS + 100], {
        workerKills: [kill],
        // The log has only the second attempt: the killed worker's answer was never recorded.
        deliveryLog: new Map([['dlv_evt_1', [delivered(KILL + LEASE_MS + 90)]]]),
      }),
    );
    expect(line).toMatchObject({ delivered: 1, duplicates: 1, duplicatesUnexplained: 0 });
    expect(line.duplicatesExplained).toEqual([
      'dlv_evt_1 (asset.created of ast_1) received 2×: in flight when webhook-worker was killed (received 0.01 s before it was gone)',
    ]);
    expect(lineFails(line)).toBe(false);
    expect(formatRow(line)).toContain(
      '1 duplicates explained, in flight when webhook-worker was killed: dlv_evt_1 (asset.created of ast_1) 0.01 s before',
    );
  });

  it('fails a duplicate with no worker kill', () => {
    const line = ledgerLine(duplicated([1_000, 1_500, 2_000], {}));
    expect(line).toMatchObject({ duplicates: 2, duplicatesUnexplained: 2, missing: 0 });
    expect(lineFails(line)).toBe(true);
    expect(line.failures[0]).toContain('dlv_evt_1 (asset.created of ast_1) received 3×');
  });

  it('fails a duplicate whose first receipt the worker had recorded as delivered', () => {
    const line = ledgerLine(
      duplicated([KILL - 5, KILL + LEASE_MS], {
        workerKills: [kill],
        deliveryLog: new Map([['dlv_evt_1', [delivered(KILL - 20), delivered(KILL + LEASE_MS)]]]),
      }),
    );
    expect(line.duplicatesUnexplained).toBe(1);
  });

  it('fails a duplicate when the kill came after the second send, or long after the first', () => {
    const sentAgainFirst = ledgerLine(
      duplicated([KILL - 500, KILL - 100], { workerKills: [kill] }),
    );
    expect(sentAgainFirst.duplicatesUnexplained).toBe(1);
    const leaseBefore = ledgerLine(
      duplicated([KILL - LEASE_MS - 1_000, KILL + 100], { workerKills: [kill] }),
    );
    expect(leaseBefore.duplicatesUnexplained).toBe(1);
  });
});

describe('explainRepeats', () => {
  it('judges every receipt but the last, each by a kill between it and the next', () => {
    const kills = [
      { worker: 'webhook-worker', at: 1_000 },
      { worker: 'webhook-worker#2', at: 5_000 },
    ];
    expect(explainRepeats([4_990, 990, 9_000], [], kills, 3_000)).toEqual([kills[0], kills[1]]);
    // The receiver may record a request a moment after its sender was seen gone.
    expect(explainRepeats([1_500, 9_000], [], kills, 3_000)).toEqual([kills[0]]);
    expect(explainRepeats([2_500, 9_000], [], kills, 3_000)).toEqual([kills[1]]);
    expect(explainRepeats([5_500], [], kills, 3_000)).toEqual([]);
  });
});

describe('formatTable', () => {
  it('has a column for each count the run must keep at 0', () => {
    const header = formatTable([]).split('\n')[0] ?? '';
    for (const column of ['overdue missing', 'overdue twice', 'duplicates unexplained']) {
      expect(header).toContain(`| ${column} |`);
    }
  });
});
