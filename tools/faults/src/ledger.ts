import type { UnexpectedExit } from './apps';
import type { WriteRecord } from './load';

/** An asset row of the window's keys, as Postgres has it. */
export interface AssetRow {
  key: string;
  id: string;
  /** ms since the epoch (the transaction's start). */
  createdAt: number;
}

/** The `asset.created` the receiver accepted for one asset. */
export interface Receipt {
  eventId: string;
  /** Delivery id → how many times it was accepted. */
  deliveries: Map<string, number>;
}

/** Everything one fault window produced, gathered once it has settled. */
export interface WindowFacts {
  fault: string;
  /** When the fault was injected (ms since the epoch). */
  faultAt: number;
  writes: WriteRecord[];
  rows: AssetRow[];
  /** Asset id → its received `asset.created`. */
  received: Map<string, Receipt>;
  /** Assets whose `asset.created` delivery the worker marked failed (3 attempts used). */
  failedDeliveries: Set<string>;
  /** Only while the receiver itself was failing is a failed delivery the contract's doing. */
  receiverFailed: boolean;
  exits: UnexpectedExit[];
  notes: string[];
  /** Checks of this fault beyond the columns (e.g. the quota count); each one is a failure. */
  failures: string[];
}

export interface LedgerLine {
  fault: string;
  acked: number;
  ambiguous: number;
  appliedTwice: number;
  /** Acknowledged writes whose asset Postgres does not have. */
  ackedAbsent: number;
  expected: number;
  delivered: number;
  missing: number;
  givenUp: number;
  duplicates: number;
  exited: string[];
  /** Seconds from the fault to the first write sent after it that was acknowledged. */
  recoverySeconds: number | null;
  notes: string[];
  failures: string[];
}

/**
 * The ledger line of one window:
 * - events expected: one `asset.created` per asset the window's writes created, acknowledged
 *   or not (an ambiguous write's asset exists, so its event is owed too);
 * - missing: expected events never accepted by the receiver, except those the worker gave up
 *   on after its 3 attempts while the receiver was refusing them (the contract's behaviour,
 *   in the delivery log); a delivery given up with the receiver up is missing;
 * - ambiguous: writes that got a 5xx although their asset already existed when the answer
 *   came (created_at before it);
 * - duplicates: extra acceptances of one delivery id (at-least-once redelivery).
 */
export function ledgerLine(facts: WindowFacts): LedgerLine {
  const rowsByKey = new Map<string, AssetRow[]>();
  for (const row of facts.rows) {
    const rows = rowsByKey.get(row.key) ?? [];
    rows.push(row);
    rowsByKey.set(row.key, rows);
  }
  const acked = facts.writes.filter((write) => write.outcome === 'acked');
  const ackedAbsent = acked.filter(
    (write) => !(rowsByKey.get(write.key) ?? []).some((row) => row.id === write.assetId),
  ).length;
  const appliedTwice = [...rowsByKey.values()].filter((rows) => rows.length > 1).length;
  const ambiguous = facts.writes.filter((write) => {
    const first = Math.min(...(rowsByKey.get(write.key) ?? []).map((row) => row.createdAt));
    return write.attempts.some(
      (attempt) => attempt.status !== null && attempt.status >= 500 && attempt.endedAt > first,
    );
  }).length;

  const expectedIds = new Set([
    ...facts.rows.map((row) => row.id),
    ...acked.flatMap((write) => (write.assetId ? [write.assetId] : [])),
  ]);
  let delivered = 0;
  let givenUp = 0;
  let duplicates = 0;
  let missing = 0;
  for (const id of expectedIds) {
    const receipt = facts.received.get(id);
    if (receipt) {
      delivered++;
      for (const count of receipt.deliveries.values()) duplicates += count - 1;
      continue;
    }
    if (facts.failedDeliveries.has(id)) givenUp++;
    if (!(facts.receiverFailed && facts.failedDeliveries.has(id))) missing++;
  }

  const recovered = facts.writes
    .flatMap((write) => write.attempts)
    .filter(
      (attempt) =>
        attempt.startedAt >= facts.faultAt &&
        attempt.status !== null &&
        attempt.status >= 200 &&
        attempt.status < 300,
    )
    .map((attempt) => attempt.endedAt);
  const recoverySeconds =
    recovered.length > 0 ? (Math.min(...recovered) - facts.faultAt) / 1000 : null;

  return {
    fault: facts.fault,
    acked: acked.length,
    ambiguous,
    appliedTwice,
    ackedAbsent,
    expected: expectedIds.size,
    delivered,
    missing,
    givenUp,
    duplicates,
    exited: facts.exits.map((exit) => `${exit.app} (${exit.signal ?? `code ${exit.code}`})`),
    recoverySeconds,
    notes: [...writeNotes(facts.writes), ...facts.notes],
    failures: facts.failures,
  };
}

/** What the writes met on their way: retries, answers by status, outcomes other than 2xx. */
function writeNotes(writes: WriteRecord[]): string[] {
  const answers = new Map<string, number>();
  let retried = 0;
  for (const write of writes) {
    if (write.attempts.length > 1) retried++;
    for (const attempt of write.attempts) {
      if (attempt.status !== null && attempt.status < 300) continue;
      const label =
        attempt.status === null ? `no answer (${attempt.error ?? '?'})` : String(attempt.status);
      answers.set(label, (answers.get(label) ?? 0) + 1);
    }
  }
  const notes: string[] = [];
  const latencies = writes
    .filter((write) => write.outcome === 'acked')
    .map((write) => (write.attempts.at(-1)?.endedAt ?? write.startedAt) - write.startedAt)
    .sort((a, b) => a - b);
  if (latencies.length > 0) {
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
    notes.push(`write to ack p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1)} ms`);
  }
  if (retried > 0) notes.push(`${retried} writes retried`);
  if (answers.size > 0) {
    notes.push(
      `failed attempts: ${[...answers].map(([label, count]) => `${count}× ${label}`).join(', ')}`,
    );
  }
  const gaveUp = writes.filter((write) => write.outcome === 'gave_up').length;
  if (gaveUp > 0) notes.push(`${gaveUp} writes gave up after the retry budget`);
  const refused = writes.filter((write) => write.outcome === 'refused');
  if (refused.length > 0) {
    const first = refused[0]?.attempts.at(-1);
    notes.push(
      `${refused.length} writes refused (not retried), e.g. ${first?.status ?? '?'} ${first?.error ?? ''}`.trim(),
    );
  }
  return notes;
}

/** Whether the line breaks a rule the run must keep (the tool then exits non-zero). */
export function lineFails(line: LedgerLine): boolean {
  return (
    line.missing > 0 ||
    line.appliedTwice > 0 ||
    line.ackedAbsent > 0 ||
    line.exited.length > 0 ||
    line.failures.length > 0
  );
}

const COLUMNS = [
  'fault',
  'writes acked',
  'ambiguous',
  'applied twice',
  'acked, not stored',
  'events expected',
  'delivered',
  'missing',
  'given up (receiver down)',
  'duplicate deliveries',
  'apps exited',
  'recover s',
  'notes',
];

/** One markdown row; the header when `line` is absent. */
export function formatRow(line?: LedgerLine): string {
  const cells = line
    ? [
        line.fault,
        String(line.acked),
        String(line.ambiguous),
        String(line.appliedTwice),
        String(line.ackedAbsent),
        String(line.expected),
        String(line.delivered),
        String(line.missing),
        String(line.givenUp),
        String(line.duplicates),
        line.exited.length === 0 ? '0' : line.exited.join(', '),
        line.recoverySeconds === null ? 'never' : line.recoverySeconds.toFixed(2),
        [...line.failures.map((failure) => `FAILED: ${failure}`), ...line.notes]
          .join('; ')
          .replaceAll('|', '/'),
      ]
    : COLUMNS;
  return `| ${cells.join(' | ')} |`;
}

export function formatTable(lines: LedgerLine[]): string {
  return [
    formatRow(),
    `|${COLUMNS.map(() => ' --- ').join('|')}|`,
    ...lines.map((line) => formatRow(line)),
  ].join('\n');
}
