import { ENDPOINT_DISABLED_ROUTING_KEY } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import type { DataSource } from 'typeorm';
import type { EndpointEntity } from '../webhooks/endpoint.entity';
import type { DeliveryEntity } from './delivery.entity';
import type { EventPayloadEntity } from './event-payload.entity';
import type { AttemptResult } from './sender';

/** A due delivery this worker leased, with what sending it needs (the aliases of claim). */
export type ClaimedDelivery = Pick<DeliveryEntity, 'id' | 'event' | 'attempts' | 'chain'> &
  Pick<EventPayloadEntity, 'context'> &
  Pick<EndpointEntity, 'url' | 'secret'> & {
    /** The envelope as sent and signed: its stored JSON, as text (never parsed here). */
    body: string;
    /** The envelope's created_at (for the end-to-end latency metric). */
    eventCreatedAt: string;
    endpointId: DeliveryEntity['endpoint_id'];
    workspaceId: DeliveryEntity['workspace_id'];
    /** Attempts before the current chain (a resend's): its retries count from there. */
    attemptsBeforeChain: DeliveryEntity['attempts_before_chain'];
    /** The previous secret while a rotation's overlap lasts, else null. */
    previousSecret: EndpointEntity['previous_secret'];
    /**
     * Our lease, as Postgres wrote it (as text, which keeps its microseconds): a release clears
     * the row's lease only while it is still this one.
     */
    lease: string;
  };

/** A lease to give back: the row's, if it is still ours. */
export interface HeldLease {
  id: string;
  lease: string;
}

/** What one claim may take. */
export interface ClaimRequest {
  /** Deliveries to lease at most, in all. */
  limit: number;
  leaseMs: number;
  /** The most an endpoint may hold: in flight and leased ahead. */
  perEndpoint: number;
  /** The most a workspace may hold, all its endpoints together. */
  perWorkspace: number;
  /** Endpoints that already hold some, and how many. */
  busy: Array<{ endpointId: string; taken: number }>;
  /** Endpoints with no room: none of theirs is taken. */
  full: string[];
  /** Workspaces that already hold some, and how many. */
  busyWorkspaces: Array<{ workspaceId: string; taken: number }>;
  /** Workspaces with no room. */
  fullWorkspaces: string[];
  /** Deliveries this worker holds: never taken again, even once their lease ran out. */
  held: string[];
}

/** An answered attempt, as it is recorded. */
export interface AttemptRecord {
  deliveryId: string;
  /** The lease it was sent under: the attempt is not recorded over another worker's lease. */
  lease: string;
  /** Its number: the delivery's attempts so far + 1. */
  attempt: number;
  /** The delivery's chain it belongs to (1, or the resend's). */
  chain: number;
  /** What the delivery becomes: pending again (a retry), delivered or failed. */
  status: 'pending' | 'delivered' | 'failed';
  /** For a retry, how long (ms) until it is due again. */
  waitMs: number;
  result: AttemptResult;
}

/** When a run of failed deliveries disables an endpoint: both must hold. */
export interface AutoDisableRule {
  /** Failed deliveries in a row, none delivered between. */
  afterFailures: number;
  /** Hours since the run's first failure. */
  afterHours: number;
}

/** An endpoint whose state a recording changed: disabled by its run, or enabled by a ping. */
export interface EndpointChange {
  id: string;
  workspaceId: string;
  url: string;
  change: 'auto_disabled' | 're_enabled';
  consecutiveFailures: number;
}

/**
 * The statements on delivery leases: claim due deliveries, give back leases not used, and
 * record an attempt (which ends its lease, and keeps the endpoint's run of failures). None
 * holds a transaction over HTTP.
 */
export class DeliveryLeases {
  constructor(
    private readonly db: DataSource,
    private readonly autoDisable: AutoDisableRule = { afterFailures: 50, afterHours: 24 },
  ) {}

  /**
   * Deliveries due now that no worker holds (to enabled endpoints: a disabled one's wait for it
   * on purpose), and how long the oldest has been due: the work the workers are behind on, for
   * the metrics (read at scrape time, through the index of pending deliveries).
   */
  async due(): Promise<{ due: number; oldestAgeSeconds: number }> {
    const [row] = await this.db.query<Array<{ due: number; age: number | null }>>(
      `SELECT count(*)::int AS due,
         extract(epoch FROM now() - min(d.next_attempt_at))::float8 AS age
       FROM delivery.deliveries d JOIN delivery.endpoints e ON e.id = d.endpoint_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= now()
         AND (d.lease_until IS NULL OR d.lease_until < now()) AND e.enabled`,
    );
    return { due: row?.due ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
  }

  /**
   * Shares the claim between workspaces, and between endpoints inside one, whatever their
   * backlogs: each endpoint with pending deliveries is visited once (a loose index scan of the
   * pending deliveries by endpoint, one probe each), the oldest due of each are candidates, and
   * they are ranked so that every workspace's first delivery comes before any workspace's
   * second (and likewise for endpoints inside a workspace), each within the room its caps
   * leave. Endpoints and workspaces without room are left out, and so are the deliveries this
   * worker holds (a lease of ours that ran out must not give us a second copy). A disabled
   * endpoint's deliveries wait, and go out once it is enabled again, except a Test ping: it is
   * sent (found through deliveries_pending_pings), since a delivered one is what re-enables an
   * endpoint disabled for its failures.
   *
   * Candidates are read without locks; only the chosen rows are locked (SKIP LOCKED, and
   * rechecked: one another worker leased or rescheduled since our snapshot no longer
   * qualifies), so a claim writes no more than it takes. The lease comes back as text: a JS
   * Date would lose its microseconds, and releases match it exactly.
   */
  async claim(request: ClaimRequest): Promise<ClaimedDelivery[]> {
    // TypeORM returns [rows, count] for UPDATE ... RETURNING.
    const [claimed] = await this.db.query<[ClaimedDelivery[], number]>(
      `WITH RECURSIVE
       busy AS (
         SELECT * FROM unnest($3::text[], $4::int[]) AS b (endpoint_id, taken)),
       busy_workspaces AS (
         SELECT * FROM unnest($5::text[], $6::int[]) AS w (workspace_id, taken)),
       pending_endpoints AS (
         (SELECT endpoint_id, next_attempt_at FROM delivery.deliveries
          WHERE status = 'pending' ORDER BY endpoint_id, next_attempt_at LIMIT 1)
         UNION ALL
         SELECT next.endpoint_id, next.next_attempt_at FROM pending_endpoints p,
           LATERAL (SELECT endpoint_id, next_attempt_at FROM delivery.deliveries
                    WHERE status = 'pending' AND endpoint_id > p.endpoint_id
                    ORDER BY endpoint_id, next_attempt_at LIMIT 1) next),
       due_endpoints AS (
         SELECT p.endpoint_id, e.workspace_id, e.enabled,
           $7 - coalesce(b.taken, 0) AS room,
           $8 - coalesce(w.taken, 0) AS workspace_room
         FROM pending_endpoints p
         JOIN delivery.endpoints e ON e.id = p.endpoint_id
         LEFT JOIN busy b USING (endpoint_id)
         LEFT JOIN busy_workspaces w ON w.workspace_id = e.workspace_id
         WHERE p.endpoint_id <> ALL ($9::text[])
           AND e.workspace_id <> ALL ($10::text[])
           AND (e.enabled AND p.next_attempt_at <= now()
             OR NOT e.enabled AND EXISTS (
               SELECT FROM delivery.deliveries q
               WHERE q.endpoint_id = e.id AND q.status = 'pending' AND q.event = 'ping'))),
       candidates AS (
         SELECT c.id, c.next_attempt_at, d.workspace_id, d.workspace_room,
           row_number() OVER (PARTITION BY d.endpoint_id ORDER BY c.next_attempt_at) AS n
         FROM due_endpoints d,
           -- One branch runs per endpoint (d.enabled is a one-time filter): a disabled
           -- endpoint's pings come from deliveries_pending_pings, not a scan of its backlog.
           LATERAL ((SELECT id, next_attempt_at FROM delivery.deliveries
                     WHERE d.enabled AND endpoint_id = d.endpoint_id AND status = 'pending'
                       AND next_attempt_at <= now()
                       AND (lease_until IS NULL OR lease_until < now())
                       AND id <> ALL ($11::text[])
                     ORDER BY next_attempt_at LIMIT d.room)
                    UNION ALL
                    (SELECT id, next_attempt_at FROM delivery.deliveries
                     WHERE NOT d.enabled AND endpoint_id = d.endpoint_id
                       AND status = 'pending' AND event = 'ping'
                       AND next_attempt_at <= now()
                       AND (lease_until IS NULL OR lease_until < now())
                       AND id <> ALL ($11::text[])
                     ORDER BY next_attempt_at LIMIT d.room)) c
         WHERE d.room > 0),
       ranked AS (
         SELECT id, next_attempt_at, workspace_room,
           row_number() OVER (PARTITION BY workspace_id ORDER BY n, next_attempt_at) AS m
         FROM candidates),
       chosen AS (
         SELECT id FROM ranked WHERE m <= workspace_room
         ORDER BY m, next_attempt_at LIMIT $1),
       locked AS (
         SELECT d.id FROM delivery.deliveries d
         WHERE d.id = ANY (ARRAY (SELECT id FROM chosen))
           AND d.status = 'pending' AND d.next_attempt_at <= now()
           AND (d.lease_until IS NULL OR d.lease_until < now())
         FOR UPDATE OF d SKIP LOCKED)
       UPDATE delivery.deliveries d
       SET lease_until = now() + $2 * interval '1 millisecond'
       FROM delivery.endpoints e, delivery.event_payloads p
       WHERE d.id = ANY (ARRAY (SELECT id FROM locked)) AND e.id = d.endpoint_id
         AND (e.enabled OR d.event = 'ping') AND p.event_id = d.event_id
       RETURNING d.id, d.endpoint_id AS "endpointId", d.workspace_id AS "workspaceId", d.event,
         p.payload::text AS body, p.payload ->> 'created_at' AS "eventCreatedAt", d.attempts,
         d.chain, d.attempts_before_chain AS "attemptsBeforeChain", p.context, e.url, e.secret,
         CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END
           AS "previousSecret",
         d.lease_until::text AS lease`,
      [
        request.limit,
        request.leaseMs,
        request.busy.map((each) => each.endpointId),
        request.busy.map((each) => each.taken),
        request.busyWorkspaces.map((each) => each.workspaceId),
        request.busyWorkspaces.map((each) => each.taken),
        request.perEndpoint,
        request.perWorkspace,
        request.full,
        request.fullWorkspaces,
        request.held,
      ],
    );
    return claimed;
  }

  /**
   * Clears the leases given back. A row's lease is cleared only if it is still the one we
   * took: one that ran out and was taken since (by another worker, or by us in a later claim)
   * is left alone.
   */
  async release(leases: HeldLease[]): Promise<void> {
    await this.db.query(
      `UPDATE delivery.deliveries d SET lease_until = NULL
       FROM unnest($1::text[], $2::timestamptz[]) AS r (id, lease)
       WHERE d.id = r.id AND d.lease_until = r.lease`,
      [leases.map((each) => each.id), leases.map((each) => each.lease)],
    );
  }

  /**
   * One statement for any number of attempts: each delivery moves on, its lease ends and its
   * attempt is logged together. Only while no other worker holds a live lease on the row: an
   * attempt whose lease ran out and was taken by another worker (which may be sending it now)
   * writes nothing, so it neither clears that worker's lease nor makes the delivery due under
   * it. A lease of ours that merely ran out, untaken, is still ours to end.
   *
   * The same statement keeps each endpoint's run: a delivered delivery ends it, a failed one
   * adds to it, and a run of at least autoDisable.afterFailures that began at least
   * afterHours ago disables the endpoint (`auto`). A delivered Test ping enables an endpoint
   * disabled that way. Endpoint rows are locked in id order (and only FOR NO KEY UPDATE, which
   * fan-out's inserts do not wait for), so workers recording at once cannot deadlock on them.
   * Each disable also writes an `internal.endpoint.disabled` notice to the worker's outbox (the
   * register e-mails the workspace's owners and admins from it). Returns the endpoints it
   * disabled or enabled.
   */
  async record(attempts: AttemptRecord[]): Promise<EndpointChange[]> {
    return this.db.query<EndpointChange[]>(
      `WITH attempt AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[],
           $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::text[], $10::timestamptz[],
           $11::int[], $12::jsonb[], $13::jsonb[])
           AS a (delivery_id, attempt, status, wait_ms, started_at, duration_ms, status_code,
             error, response_body, lease, chain, request_headers, response_headers)),
       moved AS (
         UPDATE delivery.deliveries d
         SET attempts = a.attempt, status = a.status, lease_until = NULL,
             next_attempt_at = now() + a.wait_ms * interval '1 millisecond',
             finished_at = CASE WHEN a.status <> 'pending' THEN now() END
         FROM attempt a
         WHERE d.id = a.delivery_id AND d.attempts = a.attempt - 1
           AND (d.lease_until = a.lease OR d.lease_until IS NULL OR d.lease_until <= now())
         RETURNING a.delivery_id, a.attempt, a.chain, a.started_at, a.duration_ms,
           a.status_code, a.error, a.response_body, a.request_headers, a.response_headers,
           d.endpoint_id, d.event, a.status),
       logged AS (
         INSERT INTO delivery.delivery_attempts
           (delivery_id, attempt, chain, started_at, duration_ms, status_code, error,
            response_body, request_headers, response_headers)
         SELECT delivery_id, attempt, chain, started_at, duration_ms, status_code, error,
           response_body, request_headers, response_headers
         FROM moved
         ON CONFLICT (delivery_id, attempt) DO NOTHING),
       outcomes AS (
         SELECT endpoint_id,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           bool_or(status = 'delivered') AS delivered,
           bool_or(status = 'delivered' AND event = 'ping') AS pinged
         FROM moved WHERE status <> 'pending' GROUP BY endpoint_id),
       locked AS (
         SELECT e.id, e.enabled, e.disabled_reason, e.consecutive_failures, e.failing_since,
           o.failed, o.delivered, o.pinged
         FROM delivery.endpoints e JOIN outcomes o ON o.endpoint_id = e.id
         ORDER BY e.id FOR NO KEY UPDATE OF e),
       judged AS (
         SELECT l.*,
           l.enabled AND NOT l.delivered
             AND l.consecutive_failures + l.failed >= $14
             AND coalesce(l.failing_since, now()) <= now() - $15 * interval '1 hour'
             AS disable,
           NOT l.enabled AND l.disabled_reason = 'auto' AND l.pinged AS enable
         FROM locked l),
       changed AS (
         UPDATE delivery.endpoints e
         SET consecutive_failures =
               CASE WHEN j.delivered THEN 0 ELSE j.consecutive_failures + j.failed END,
             failing_since =
               CASE WHEN j.delivered THEN NULL ELSE coalesce(j.failing_since, now()) END,
             enabled = CASE WHEN j.disable THEN false WHEN j.enable THEN true ELSE e.enabled END,
             disabled_reason = CASE WHEN j.disable THEN 'auto' WHEN j.enable THEN NULL
                                    ELSE e.disabled_reason END,
             disabled_at = CASE WHEN j.disable THEN now() WHEN j.enable THEN NULL
                                ELSE e.disabled_at END
         FROM judged j
         WHERE e.id = j.id
         RETURNING e.id, e.workspace_id AS "workspaceId", e.url,
           CASE WHEN j.disable THEN 'auto_disabled' WHEN j.enable THEN 're_enabled' END
             AS change,
           e.consecutive_failures AS "consecutiveFailures", e.failing_since, e.disabled_at),
       -- The system's change to an endpoint, in the activity feed with the change itself.
       noted AS (
         INSERT INTO delivery.activity (id, workspace_id, at, source, actor_type, record_type,
           record_id, record_name, action, changes)
         SELECT ($16::text[])[row_number() OVER (ORDER BY c.id)], c."workspaceId",
           date_trunc('milliseconds', clock_timestamp()), 'system', 'system', 'endpoint', c.id,
           c.url, CASE WHEN c.change = 'auto_disabled' THEN 'disabled' ELSE 'enabled' END,
           jsonb_build_array(jsonb_build_object('field', 'enabled',
             'from', (c.change = 'auto_disabled')::text,
             'to', (c.change <> 'auto_disabled')::text))
         FROM changed c WHERE c.change IS NOT NULL),
       -- The register's notice of a disable (it e-mails the owners and admins), in the outbox
       -- with the change itself: written once per disable, never for one that rolled back.
       announced AS (
         INSERT INTO delivery.outbox (id, workspace_id, event, data)
         SELECT ($17::text[])[row_number() OVER (ORDER BY c.id)], c."workspaceId",
           '${ENDPOINT_DISABLED_ROUTING_KEY}',
           jsonb_build_object('workspace_id', c."workspaceId", 'endpoint_id', c.id,
             'url', c.url, 'reason', 'auto',
             'consecutive_failures', c."consecutiveFailures",
             'failing_since', ${isoUtc('c.failing_since')},
             'disabled_at', ${isoUtc('c.disabled_at')})
         FROM changed c WHERE c.change = 'auto_disabled')
       SELECT id, "workspaceId", url, change, "consecutiveFailures"
       FROM changed WHERE change IS NOT NULL`,
      [
        attempts.map((each) => each.deliveryId),
        attempts.map((each) => each.attempt),
        attempts.map((each) => each.status),
        attempts.map((each) => each.waitMs),
        attempts.map((each) => each.result.startedAt.toISOString()),
        attempts.map((each) => each.result.durationMs),
        attempts.map((each) => each.result.statusCode),
        attempts.map((each) => each.result.error),
        attempts.map((each) => each.result.responseBody),
        attempts.map((each) => each.lease),
        attempts.map((each) => each.chain),
        attempts.map((each) => jsonOrNull(each.result.requestHeaders)),
        attempts.map((each) => jsonOrNull(each.result.responseHeaders)),
        this.autoDisable.afterFailures,
        this.autoDisable.afterHours,
        // Ids for the feed's entries: at most one endpoint changes per attempt.
        attempts.map(() => newId('act')),
        // Ids for the outbox's notices, likewise.
        attempts.map(() => newId('evt')),
      ],
    );
  }
}

/** A timestamptz column as the ISO 8601 text JavaScript writes (UTC, milliseconds). */
function isoUtc(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function jsonOrNull(value: object | null | undefined): string | null {
  return value ? JSON.stringify(value) : null;
}
