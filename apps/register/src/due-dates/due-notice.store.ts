import { queryRows, type Queryable } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';
import { ARMED, type DueNoticeEntity } from './due-notice.entity';

/*
 * register.due_notices: its SQL and its row types. Domains arm and cancel notices here, in the
 * transaction of the change that sets or clears their date; the engine claims and settles them.
 *
 * Dates are compared as Postgres stores them: a date from an API body (a JS Date) has
 * milliseconds, and a domain that compares its own column with a notice's due_at compares two
 * values written from the same Date.
 */

/** The record a notice is about: `{ workspaceId, type: 'asset', id: 'ast_...' }`. */
export interface DueSubject {
  workspaceId: string;
  type: string;
  id: string;
}

// ---------------------------------------------------------------------------------------------
// Arming and cancelling (the domains')

/**
 * Arms the notice of `kind` for `subject` at `dueAt`, in the caller's transaction: a date
 * change re-arms, since any other armed date of the same (subject, kind) is cancelled first. A
 * notice of the same date that was cancelled is armed again; one already armed is left as it
 * is (so arming twice is harmless); one that fired, or gave up, stays so: a (subject, kind,
 * date) fires at most once. Answers whether the date is armed now (false: it fired or gave up).
 *
 * Call it right after locking the subject's row (so two writes of one subject arm one after
 * the other), before anything else that takes a lock: the engine may hold this notice while
 * its handler waits for a row (a workspace's counters), and a write that waits here holding
 * that row would close a cycle (ADR 0020). The same goes for cancelNotices.
 */
export async function armNotice(
  tx: EntityManager,
  subject: DueSubject,
  kind: string,
  dueAt: Date,
): Promise<boolean> {
  await tx.query(
    `UPDATE register.due_notices SET cancelled_at = now()
      WHERE workspace_id = $1 AND subject_type = $2 AND subject_id = $3 AND kind = $4
        AND due_at <> $5 AND ${ARMED}`,
    [subject.workspaceId, subject.type, subject.id, kind, dueAt],
  );
  const [state] = await queryRows<{ armed: boolean }>(
    tx,
    `INSERT INTO register.due_notices
            (workspace_id, subject_type, subject_id, kind, due_at, next_attempt_at)
          VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT ON CONSTRAINT due_notices_once DO UPDATE
            SET cancelled_at = NULL, attempts = 0, last_error = NULL,
                next_attempt_at = EXCLUDED.next_attempt_at, scheduled_at = now()
          WHERE due_notices.cancelled_at IS NOT NULL
     RETURNING true AS armed`,
    [subject.workspaceId, subject.type, subject.id, kind, dueAt],
  );
  if (state) return true;
  // The date was there and not cancelled: armed already, fired, or given up.
  const [existing] = await queryRows<Pick<DueNoticeEntity, 'fired_at' | 'failed_at'>>(
    tx,
    `SELECT fired_at, failed_at FROM register.due_notices
      WHERE workspace_id = $1 AND subject_type = $2 AND subject_id = $3 AND kind = $4
        AND due_at = $5`,
    [subject.workspaceId, subject.type, subject.id, kind, dueAt],
  );
  return existing !== undefined && existing.fired_at === null && existing.failed_at === null;
}

/**
 * Cancels the armed notices of `subject` (of `kind`, or of every kind), in the caller's
 * transaction: the date was cleared, or the record is gone. Fired ones stay fired. Answers how
 * many were armed.
 */
export async function cancelNotices(
  tx: EntityManager,
  subject: DueSubject,
  kind?: string,
): Promise<number> {
  const rows = await queryRows<Pick<DueNoticeEntity, 'id'>>(
    tx,
    `UPDATE register.due_notices SET cancelled_at = now()
      WHERE workspace_id = $1 AND subject_type = $2 AND subject_id = $3
        AND ($4::text IS NULL OR kind = $4) AND ${ARMED}
      RETURNING id`,
    [subject.workspaceId, subject.type, subject.id, kind ?? null],
  );
  return rows.length;
}

/** The notices of `subject`, oldest date first: what tests and an operator look at. */
export function noticesOf(db: Queryable, subject: DueSubject): Promise<NoticeRow[]> {
  return queryRows<NoticeRow>(
    db,
    `SELECT ${NOTICE_COLUMNS} FROM register.due_notices
      WHERE workspace_id = $1 AND subject_type = $2 AND subject_id = $3
      ORDER BY due_at, id`,
    [subject.workspaceId, subject.type, subject.id],
  );
}

// ---------------------------------------------------------------------------------------------
// Claiming and settling (the engine's)

export type NoticeRow = Pick<
  DueNoticeEntity,
  | 'id'
  | 'workspace_id'
  | 'subject_type'
  | 'subject_id'
  | 'kind'
  | 'due_at'
  | 'next_attempt_at'
  | 'attempts'
  | 'last_error'
  | 'fired_at'
  | 'cancelled_at'
  | 'failed_at'
>;

const NOTICE_COLUMNS = `id, workspace_id, subject_type, subject_id, kind, due_at, next_attempt_at,
  attempts, last_error, fired_at, cancelled_at, failed_at`;

/**
 * Locks at most `limit` armed notices of `kinds` whose time has come at `now`, the longest
 * waiting first, and answers them by workspace. SKIP LOCKED: replicas claiming at once take
 * different rows instead of waiting for each other, and a row stays locked (so claimed by no
 * one else) until the claiming transaction ends. `skip`: ids this run already left armed
 * (busy), which must not be claimed again in the same run.
 *
 * By workspace: a handler's writes can take a row of its workspace that every write there
 * takes (an update of register.assets bumps the workspace's counters row, by trigger), and
 * two engines taking those rows in the same order cannot deadlock each other.
 */
export function claimDue(
  tx: EntityManager,
  now: Date,
  kinds: string[],
  skip: string[],
  limit: number,
): Promise<NoticeRow[]> {
  return queryRows<NoticeRow>(
    tx,
    `WITH claimed AS (
       SELECT ${NOTICE_COLUMNS} FROM register.due_notices
        WHERE ${ARMED} AND next_attempt_at <= $1 AND kind = ANY($2::text[])
          AND NOT (id = ANY($3::bigint[]))
        ORDER BY next_attempt_at, id
        LIMIT $4
        FOR UPDATE SKIP LOCKED)
     SELECT * FROM claimed ORDER BY workspace_id, next_attempt_at, id`,
    [now, kinds, skip, limit],
  );
}

export async function markFired(tx: EntityManager, id: string, now: Date): Promise<void> {
  await tx.query(`UPDATE register.due_notices SET fired_at = $2 WHERE id = $1`, [id, now]);
}

/** Its handler found nothing due any more (the record changed without cancelling it). */
export async function markObsolete(tx: EntityManager, id: string, now: Date): Promise<void> {
  await tx.query(`UPDATE register.due_notices SET cancelled_at = $2 WHERE id = $1`, [id, now]);
}

/**
 * Counts a failed attempt: tried again at `retryAt`, or, with `giveUp`, never again (failed_at
 * set, the notice left for an operator).
 */
export async function recordFailure(
  tx: EntityManager,
  id: string,
  failure: { error: string; retryAt: Date; giveUp: boolean; now: Date },
): Promise<void> {
  await tx.query(
    `UPDATE register.due_notices
        SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3,
            failed_at = CASE WHEN $4::boolean THEN $5::timestamptz END
      WHERE id = $1`,
    [id, failure.error, failure.retryAt, failure.giveUp, failure.now],
  );
}

/**
 * A handler's lock of its notice's record (`table`, by the notice's subject id and workspace):
 * its `columns` when locked, `busy` when a write holds the row (SKIP LOCKED, so the engine
 * never waits while it holds the notice: ADR 0020; tried again), `obsolete` when the record
 * is gone.
 */
export async function lockNoticeSubject<T>(
  tx: EntityManager,
  notice: { subjectId: string; workspaceId: string },
  table: string,
  columns: string,
): Promise<T | 'busy' | 'obsolete'> {
  const [locked] = await queryRows<T>(
    tx,
    `SELECT ${columns} FROM ${table} WHERE id = $1 AND workspace_id = $2 FOR UPDATE SKIP LOCKED`,
    [notice.subjectId, notice.workspaceId],
  );
  if (locked) return locked;
  const [exists] = await queryRows<{ id: string }>(
    tx,
    `SELECT id FROM ${table} WHERE id = $1 AND workspace_id = $2`,
    [notice.subjectId, notice.workspaceId],
  );
  return exists ? 'busy' : 'obsolete';
}
