import {
  BULK_RESEND_MAX,
  type DeliveryAttemptLogView,
  type DeliveryLogEntry,
  type DeliverySummaryView,
} from '@custodian/contracts';
import { queryOne, type Queryable, type RetentionRule } from '@custodian/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { DeliveryEntity } from './delivery.entity';
import type { EventPayloadEntity } from './event-payload.entity';

/*
 * delivery.deliveries and delivery.delivery_attempts: their SQL and row types, but for the
 * statements of a delivery's lease and attempts (claim, release, record), which are
 * DeliveryLeases' (delivery-leases.ts, called by AttemptRecorder and the scheduler).
 */

// ---------------------------------------------------------------------------------------------
// Fan-out and an endpoint's deliveries (FanOut, EndpointDeliveries, DeliveryPruner)

/** Event payloads, column by column: the i-th of each array make one. */
export interface NewEventPayloads {
  eventIds: string[];
  /** The event's envelope, as JSON. */
  payloads: string[];
  /** Its message's context, as JSON (null: none). */
  contexts: Array<string | null>;
}

/** Stores them in one statement; an event already stored is skipped. */
export async function insertEventPayloads(db: Queryable, events: NewEventPayloads): Promise<void> {
  await db.query(
    `INSERT INTO delivery.event_payloads (event_id, payload, context)
       SELECT p.event_id, p.payload::jsonb, p.context::jsonb
       FROM unnest($1::text[], $2::text[], $3::text[]) AS p (event_id, payload, context)
       ON CONFLICT (event_id) DO NOTHING`,
    [events.eventIds, events.payloads, events.contexts],
  );
}

/** New deliveries, column by column: the i-th of each array make one. */
export interface NewDeliveries {
  ids: string[];
  eventIds: string[];
  endpointIds: string[];
  workspaceIds: string[];
  events: string[];
}

/**
 * Stores them in one statement (their events' payloads must be stored); an (event, endpoint)
 * already stored is skipped.
 */
export function insertDeliveries(
  db: Queryable,
  deliveries: NewDeliveries,
): Promise<Array<Pick<DeliveryEntity, 'id'>>> {
  return db.query<Array<Pick<DeliveryEntity, 'id'>>>(
    `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event)
       SELECT d.id, d.event_id, d.endpoint_id, d.workspace_id, d.event
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
         AS d (id, event_id, endpoint_id, workspace_id, event)
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING id`,
    [
      deliveries.ids,
      deliveries.eventIds,
      deliveries.endpointIds,
      deliveries.workspaceIds,
      deliveries.events,
    ],
  );
}

/** The delivery of the event to the endpoint (it must exist). */
export function deliveryOf(
  db: DataSource,
  eventId: string,
  endpointId: string,
): Promise<Pick<DeliveryEntity, 'id'>> {
  return queryOne<Pick<DeliveryEntity, 'id'>>(
    db,
    `SELECT id FROM delivery.deliveries WHERE event_id = $1 AND endpoint_id = $2`,
    [eventId, endpointId],
  );
}

/** The endpoint's last `limit` deliveries, newest first, each with its attempts. */
export function endpointDeliveryLog(
  db: DataSource,
  endpointId: string,
  limit: number,
): Promise<DeliveryLogEntry[]> {
  return db.query<DeliveryLogEntry[]>(
    `SELECT d.id AS delivery_id, d.event_id, d.event, d.status,
              COALESCE(json_agg(json_build_object(
                'attempt', a.attempt,
                'started_at', to_char(a.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'duration_ms', a.duration_ms,
                'status_code', a.status_code,
                'error', a.error,
                'response_body', a.response_body) ORDER BY a.attempt)
                FILTER (WHERE a.attempt IS NOT NULL), '[]') AS attempts
       FROM (SELECT * FROM delivery.deliveries WHERE endpoint_id = $1
             ORDER BY created_at DESC, id DESC LIMIT $2) d
       LEFT JOIN delivery.delivery_attempts a ON a.delivery_id = d.id
       GROUP BY d.id, d.event_id, d.event, d.status, d.created_at
       ORDER BY d.created_at DESC, d.id DESC`,
    [endpointId, limit],
  );
}

/**
 * The retention: finished deliveries (and, by cascade, their attempts) older than `days`.
 * Pending deliveries are never touched. Their payloads go after them (orphanPayloads).
 */
export function deliveryRetention(days: number): RetentionRule {
  return {
    table: 'delivery.deliveries',
    where: `status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
    parameters: [days],
  };
}

/**
 * Payloads no delivery references any more (their deliveries pruned, or their endpoint
 * deleted), an hour after they were stored: a fan-out stores an event's payload a moment
 * before its deliveries, and the foreign key refuses a delivery whose payload went meanwhile
 * (that batch is stored again, payload first).
 */
export const ORPHAN_PAYLOADS: RetentionRule = {
  table: 'delivery.event_payloads',
  key: 'event_id',
  where: `created_at < now() - interval '1 hour' AND NOT EXISTS (
      SELECT 1 FROM delivery.deliveries d WHERE d.event_id = event_payloads.event_id)`,
  parameters: [],
};

// ---------------------------------------------------------------------------------------------
// The console's delivery log (delivery-log/DeliveryLogService)

/**
 * The filters of a search or a bulk resend, checked, as a WHERE clause on `d`
 * (delivery-log/delivery-filters.ts).
 */
export interface DeliveryWhere {
  /** Conditions on delivery.deliveries d, joined with AND; `$1` is the workspace. */
  sql: string;
  parameters: unknown[];
}

export type DeliverySummaryRow = Omit<DeliverySummaryView, 'created_at' | 'last_attempt_at'> & {
  created_at: Date;
  /** created_at in UTC with microseconds, for the cursor. */
  cursor_at: string;
  last_attempt_at: Date | null;
};

export type AttemptLogRow = Omit<DeliveryAttemptLogView, 'started_at'> & { started_at: Date };

/** The summary columns of delivery d (its endpoint e, its last attempt `last`). */
const SUMMARY = `
  SELECT d.id AS delivery_id, d.event_id, d.event, d.endpoint_id, e.url AS endpoint_url,
    d.status, d.attempts, d.created_at,
    to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at,
    last.started_at AS last_attempt_at, last.status_code AS last_status_code,
    last.error AS last_error
  FROM delivery.deliveries d
  JOIN delivery.endpoints e ON e.id = d.endpoint_id
  LEFT JOIN LATERAL (
    SELECT a.started_at, a.status_code, a.error FROM delivery.delivery_attempts a
    WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1) last ON true`;

/** What a resend sets: pending again, due now, as the next chain of attempts. */
const RESEND = `
  status = 'pending', chain = d.chain + 1, attempts_before_chain = d.attempts,
  next_attempt_at = now(), lease_until = NULL, finished_at = NULL`;

/**
 * The deliveries `where` picks, newest first: `limit` of them, and one more when there are
 * more (the sign of a next page).
 */
export function searchDeliveries(
  db: DataSource,
  where: DeliveryWhere,
  limit: number,
): Promise<DeliverySummaryRow[]> {
  return db.query<DeliverySummaryRow[]>(
    `${SUMMARY} WHERE ${where.sql}
       ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`,
    where.parameters,
  );
}

export async function deliverySummary(
  db: DataSource,
  workspace: string,
  id: string,
): Promise<DeliverySummaryRow | undefined> {
  const [row] = await db.query<DeliverySummaryRow[]>(
    `${SUMMARY} WHERE d.id = $1 AND d.workspace_id = $2`,
    [id, workspace],
  );
  return row;
}

export async function deliveryPayload(
  db: DataSource,
  id: string,
): Promise<Pick<EventPayloadEntity, 'payload'> | undefined> {
  const [row] = await db.query<Array<Pick<EventPayloadEntity, 'payload'>>>(
    `SELECT p.payload FROM delivery.deliveries d
       JOIN delivery.event_payloads p ON p.event_id = d.event_id WHERE d.id = $1`,
    [id],
  );
  return row;
}

/** The delivery's attempts, in order, with their headers ({} when none were recorded). */
export function deliveryAttempts(db: DataSource, id: string): Promise<AttemptLogRow[]> {
  return db.query<AttemptLogRow[]>(
    `SELECT attempt, chain, started_at, duration_ms,
         coalesce(request_headers, '{}'::jsonb) AS request_headers, status_code,
         coalesce(response_headers, '{}'::jsonb) AS response_headers, response_body, error
       FROM delivery.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [id],
  );
}

/** Resends the workspace's delivery if it is finished; returns 1, or 0 if it is not. */
export async function resendDelivery(
  db: DataSource | EntityManager,
  workspace: string,
  id: string,
): Promise<number> {
  const [, count] = await db.query<[unknown[], number]>(
    `UPDATE delivery.deliveries d SET ${RESEND}
       WHERE d.id = $1 AND d.workspace_id = $2 AND d.status <> 'pending'`,
    [id, workspace],
  );
  return count;
}

/**
 * Resends the failed deliveries `where` picks, oldest first, BULK_RESEND_MAX at most (those
 * another transaction holds are skipped); returns how many.
 */
export async function resendFailedDeliveries(
  db: DataSource | EntityManager,
  where: DeliveryWhere,
): Promise<number> {
  const [, count] = await db.query<[unknown[], number]>(
    `WITH chosen AS (
         SELECT d.id FROM delivery.deliveries d WHERE ${where.sql}
         ORDER BY d.created_at, d.id LIMIT ${BULK_RESEND_MAX}
         FOR NO KEY UPDATE SKIP LOCKED)
       UPDATE delivery.deliveries d SET ${RESEND}
       FROM chosen WHERE d.id = chosen.id AND d.status = 'failed'`,
    where.parameters,
  );
  return count;
}
