import type { UnexpectedExit } from './apps';
import type { WriteRecord } from './load';

/** An asset row of the window's keys, as Postgres has it. */
export interface AssetRow {
  key: string;
  id: string;
  /** ms since the epoch (the transaction's start). */
  createdAt: number;
  /** Checked out by its write (`assigned_to_id`): owes an `assignment.checked_out`. */
  checkedOut: boolean;
  /** Its check-out's due date (ms since the epoch): owes one `assignment.overdue` after it. */
  dueAt: number | null;
}

/** One event the receiver accepted about one of the window's assets. */
export interface ReceivedFact {
  eventId: string;
  event: string;
  /** The asset it is about. */
  subjectId: string;
  /** An `assignment.overdue`'s due date as it carries it (ms since the epoch). */
  dueAt: number | null;
  /** Delivery id → when each accepted receipt came in (ms since the epoch), in order. */
  deliveries: Map<string, number[]>;
}

/** An attempt of a delivery as the worker recorded it (delivery.delivery_attempts). */
export interface LoggedAttempt {
  /** ms since the epoch. */
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
}

/** A webhook-worker replica the tool SIGKILLed, and when it was gone. */
export interface WorkerKill {
  worker: string;
  at: number;
}

/** The events a write owes: its asset's creation and, for a check-out, the check-out. */
export const WRITE_EVENTS = ['asset.created', 'assignment.checked_out'] as const;
/** The time-based event the load's check-outs owe once their due date has passed. */
export const OVERDUE_EVENT = 'assignment.overdue';

/** How an event and its asset are named in `failedDeliveries`. */
export function eventKey(event: string, subjectId: string): string {
  return `${event} ${subjectId}`;
}

/** Everything one fault window produced, gathered once it has settled. */
export interface WindowFacts {
  fault: string;
  /** When the fault was injected (ms since the epoch). */
  faultAt: number;
  writes: WriteRecord[];
  rows: AssetRow[];
  /** Every event received about the window's assets. */
  received: ReceivedFact[];
  /**
   * Events (eventKey) whose delivery the worker marked failed (its attempts used up), among
   * those owed and not received.
   */
  failedDeliveries: Set<string>;
  /** Only while the receiver itself was failing is a failed delivery the contract's doing. */
  receiverFailed: boolean;
  /** The worker's log of each delivery received more than once: delivery id → its attempts. */
  deliveryLog: Map<string, LoggedAttempt[]>;
  /** Worker replicas SIGKILLed by the tool (this window's and before). */
  workerKills: WorkerKill[];
  /** The worker's DELIVERY_LEASE_MS: how long a killed worker's deliveries stay its own. */
  leaseMs: number;
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
  /** Events the writes owe (WRITE_EVENTS). */
  expected: number;
  delivered: number;
  missing: number;
  /** Owed write events the worker gave up on while the receiver refused them. */
  givenUp: number;
  /** Check-outs whose due date passed: each owes exactly one `assignment.overdue`. */
  overdueDue: number;
  /** Of those, the ones whose overdue the worker gave up on while the receiver refused it. */
  overdueGivenUp: number;
  overdueMissing: number;
  /** Check-outs for which more than one `assignment.overdue` (distinct event ids) came. */
  overdueTwice: number;
  /** Receipts of a delivery id beyond its first. */
  duplicates: number;
  /** Of those, the ones no worker kill explains: each one fails the line. */
  duplicatesUnexplained: number;
  /** Each duplicate explained by an attempt in flight when its worker was killed, named. */
  duplicatesExplained: string[];
  exited: string[];
  /** Seconds from the fault to the first write sent after it that was acknowledged. */
  recoverySeconds: number | null;
  notes: string[];
  failures: string[];
}

/**
 * A receipt of a delivery that the worker's log has as an answered 2xx attempt (the receipt
 * came between the attempt's start and its answer): the worker knew it was delivered. A few ms
 * either side for the log's rounding (its start is a JS Date, its duration rounded).
 */
const LOG_SLOP_MS = 20;
/**
 * A receipt may be recorded by the receiver a moment after the worker that sent it was seen
 * gone: the request's bytes were in the kernel when it died.
 */
const KILL_SLOP_MS = 1_000;

/**
 * Why each receipt of one delivery but its last was followed by another: the worker kill that
 * explains it, or null. At-least-once delivery has one cause for a second send of a delivery
 * the receiver accepted: the worker that sent it died with the answer in hand and unrecorded,
 * so the delivery stayed pending under its lease, and once that ran out a worker sent it
 * again. So a receipt is explained when (a) the worker's log has no answered attempt for it
 * (no 2xx attempt's span contains it), and (b) a worker was killed at most a lease after it
 * (the attempt still held) and before the next receipt (the second send came after the kill).
 * Anything else (the log has the receipt as delivered, or no kill came between) is a
 * delivery sent twice by a worker that was alive: a bug.
 */
export function explainRepeats(
  receipts: number[],
  logged: LoggedAttempt[],
  kills: WorkerKill[],
  leaseMs: number,
): Array<WorkerKill | null> {
  const sorted = [...receipts].sort((a, b) => a - b);
  return sorted.slice(0, -1).map((at, i) => {
    const next = sorted[i + 1] ?? Infinity;
    const recorded = logged.some(
      (attempt) =>
        attempt.statusCode !== null &&
        attempt.statusCode >= 200 &&
        attempt.statusCode < 300 &&
        attempt.startedAt - LOG_SLOP_MS <= at &&
        at <= attempt.startedAt + attempt.durationMs + LOG_SLOP_MS,
    );
    if (recorded) return null;
    return (
      kills.find(
        (kill) => at <= kill.at + KILL_SLOP_MS && kill.at - at <= leaseMs && kill.at <= next,
      ) ?? null
    );
  });
}

/**
 * The ledger line of one window:
 * - events expected: one `asset.created` per asset the window's writes created, acknowledged
 *   or not (an ambiguous write's asset exists, so its event is owed too), and one
 *   `assignment.checked_out` per such asset checked out by its write;
 * - missing: expected events never accepted by the receiver, except those the worker gave up
 *   on after its 3 attempts while the receiver was refusing them (the contract's behaviour,
 *   in the delivery log); a delivery given up with the receiver up is missing;
 * - overdue: each check-out with a due date owes one `assignment.overdue` once it has passed:
 *   missing if none came (given up while the receiver refused excepted, counted apart), twice
 *   if two events (distinct event ids) came for one check-out; one received before its due
 *   date fails;
 * - ambiguous: writes that got a 5xx although their asset already existed when the answer
 *   came (created_at before it);
 * - duplicates: extra acceptances of one delivery id (at-least-once redelivery), each judged
 *   by explainRepeats; an unexplained one fails the line.
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
  const failures = [...facts.failures];
  // A write refused (not retried) must have left nothing: a retry is answered from the first
  // attempt's stored reply, so a stored one would have been acknowledged.
  const refusedStored = facts.writes.filter(
    (write) => write.outcome === 'refused' && rowsByKey.has(write.key),
  ).length;
  if (refusedStored > 0) failures.push(`${refusedStored} writes refused but stored`);

  const owed = owedEvents(facts);
  const bySubject = new Map<string, ReceivedFact[]>();
  for (const event of facts.received) {
    const key = eventKey(event.event, event.subjectId);
    bySubject.set(key, [...(bySubject.get(key) ?? []), event]);
  }
  let delivered = 0;
  let givenUp = 0;
  let missing = 0;
  let firedTwice = 0;
  for (const key of owed.write) {
    const events = bySubject.get(key) ?? [];
    if (events.length > 1) firedTwice++;
    if (events.length > 0) {
      delivered++;
      continue;
    }
    if (facts.failedDeliveries.has(key)) givenUp++;
    if (!(facts.receiverFailed && facts.failedDeliveries.has(key))) missing++;
  }
  if (firedTwice > 0) failures.push(`${firedTwice} write events fired twice (distinct event ids)`);

  let overdueMissing = 0;
  let overdueTwice = 0;
  let overdueGivenUp = 0;
  let early = 0;
  for (const [key, dueAt] of owed.overdue) {
    const events = bySubject.get(key) ?? [];
    if (events.length > 1) overdueTwice++;
    for (const event of events) {
      const first = Math.min(...[...event.deliveries.values()].flat());
      if (first < (event.dueAt ?? dueAt)) early++;
    }
    if (events.length > 0) continue;
    if (facts.receiverFailed && facts.failedDeliveries.has(key)) overdueGivenUp++;
    else overdueMissing++;
  }
  if (early > 0) failures.push(`${early} assignment.overdue received before their due date`);

  const judged = judgeDuplicates(facts);
  const unexplained = judged.filter((each) => !each.kill);
  if (unexplained.length > 0) {
    failures.push(
      `duplicates no worker kill explains: ${unexplained.map((each) => each.name).join(', ')}`,
    );
  }
  const explained = judged.flatMap((each) =>
    each.kill
      ? [
          `${each.name}: in flight when ${each.kill.worker} was killed ` +
            `(received ${((each.kill.at - each.at) / 1000).toFixed(2)} s before it was gone)`,
        ]
      : [],
  );

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
    expected: owed.write.size,
    delivered,
    missing,
    givenUp,
    overdueDue: owed.overdue.size,
    overdueGivenUp,
    overdueMissing,
    overdueTwice,
    duplicates: judged.length,
    duplicatesUnexplained: unexplained.length,
    duplicatesExplained: explained,
    exited: facts.exits.map((exit) => `${exit.app} (${exit.signal ?? `code ${exit.code}`})`),
    recoverySeconds,
    notes: [
      ...writeNotes(facts.writes),
      ...(overdueGivenUp > 0
        ? [`${overdueGivenUp} overdue given up while the receiver refused them`]
        : []),
      ...explainedNotes(judged),
      ...facts.notes,
    ],
    failures,
  };
}

/**
 * The events the window's assets owe (eventKey): the write events, and the overdue ones with
 * their due dates. From Postgres's rows, and from acknowledged writes whose row is absent
 * (the ledger counts those apart; their events are owed all the same).
 */
export function owedEvents(facts: Pick<WindowFacts, 'rows' | 'writes'>): {
  write: Set<string>;
  overdue: Map<string, number>;
} {
  const write = new Set<string>();
  const overdue = new Map<string, number>();
  const owe = (id: string, checkedOut: boolean, dueAt: number | null) => {
    write.add(eventKey('asset.created', id));
    if (checkedOut) write.add(eventKey('assignment.checked_out', id));
    if (dueAt !== null) overdue.set(eventKey(OVERDUE_EVENT, id), dueAt);
  };
  const stored = new Set(facts.rows.map((row) => row.id));
  for (const row of facts.rows) owe(row.id, row.checkedOut, row.dueAt);
  for (const w of facts.writes) {
    if (w.outcome === 'acked' && w.assetId && !stored.has(w.assetId)) {
      owe(w.assetId, w.dueAt !== undefined, w.dueAt ?? null);
    }
  }
  return { write, overdue };
}

/**
 * The explained duplicates, one note per kill, each delivery named once with how long before
 * the kill its receipt came (the line's own list has one full sentence per duplicate).
 */
function explainedNotes(
  judged: Array<{ delivery: string; at: number; kill: WorkerKill | null }>,
): string[] {
  const byKill = new Map<WorkerKill, string[]>();
  for (const { delivery, at, kill } of judged) {
    if (!kill) continue;
    const before = ((kill.at - at) / 1000).toFixed(2);
    byKill.set(kill, [...(byKill.get(kill) ?? []), `${delivery} ${before} s before`]);
  }
  return [...byKill].map(
    ([kill, names]) =>
      `${names.length} duplicates explained, in flight when ${kill.worker} was killed: ` +
      names.join(', '),
  );
}

/** Every receipt beyond a delivery's first, named and judged (explainRepeats). */
function judgeDuplicates(
  facts: WindowFacts,
): Array<{ name: string; delivery: string; at: number; kill: WorkerKill | null }> {
  const judged: Array<{ name: string; delivery: string; at: number; kill: WorkerKill | null }> = [];
  for (const event of facts.received) {
    for (const [deliveryId, receipts] of event.deliveries) {
      if (receipts.length < 2) continue;
      const sorted = [...receipts].sort((a, b) => a - b);
      const kills = explainRepeats(
        sorted,
        facts.deliveryLog.get(deliveryId) ?? [],
        facts.workerKills,
        facts.leaseMs,
      );
      const delivery = `${deliveryId} (${event.event} of ${event.subjectId})`;
      const name = `${delivery} received ${receipts.length}×`;
      kills.forEach((kill, i) => judged.push({ name, delivery, at: sorted[i] ?? 0, kill }));
    }
  }
  return judged;
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
  // A check-out that reaches the register after its due date (held up by the fault, or
  // retried past it) is refused (400, due_at not in the future): never stored (the ledger
  // checks that), and so no overdue is owed for it.
  const pastDue = writes.filter(
    (write) =>
      write.outcome === 'refused' &&
      write.dueAt !== undefined &&
      (write.attempts.at(-1)?.endedAt ?? 0) >= write.dueAt,
  );
  if (pastDue.length > 0) {
    notes.push(`${pastDue.length} check-outs refused, answered after their due date`);
  }
  const refused = writes.filter((write) => write.outcome === 'refused' && !pastDue.includes(write));
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
    line.overdueMissing > 0 ||
    line.overdueTwice > 0 ||
    line.duplicatesUnexplained > 0 ||
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
  'overdue due',
  'overdue missing',
  'overdue twice',
  'duplicate deliveries',
  'duplicates unexplained',
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
        String(line.overdueDue),
        String(line.overdueMissing),
        String(line.overdueTwice),
        String(line.duplicates),
        String(line.duplicatesUnexplained),
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
