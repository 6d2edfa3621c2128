import type { DataSource } from 'typeorm';
import type { EndpointEntity } from '../webhooks/endpoint.entity';
import type { DeliveryEntity } from './delivery.entity';
import type { AttemptResult } from './sender';

/** A due delivery this worker leased, with what sending it needs (the aliases of claim). */
export type ClaimedDelivery = Pick<DeliveryEntity, 'id' | 'event' | 'payload' | 'attempts'> &
  Pick<EndpointEntity, 'url' | 'secret'> & {
    endpointId: DeliveryEntity['endpoint_id'];
    workspaceId: DeliveryEntity['workspace_id'];
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
  /** What the delivery becomes: pending again (a retry), delivered or failed. */
  status: 'pending' | 'delivered' | 'failed';
  /** For a retry, how long (ms) until it is due again. */
  waitMs: number;
  result: AttemptResult;
}

/**
 * The statements on delivery leases: claim due deliveries, give back leases not used, and
 * record an attempt (which ends its lease). None holds a transaction over HTTP.
 */
export class DeliveryLeases {
  constructor(private readonly db: DataSource) {}

  /**
   * Shares the claim between workspaces, and between endpoints inside one, whatever their
   * backlogs: each endpoint with pending deliveries is visited once (a loose index scan of the
   * pending deliveries by endpoint, one probe each), the oldest due of each are candidates, and
   * they are ranked so that every workspace's first delivery comes before any workspace's
   * second (and likewise for endpoints inside a workspace), each within the room its caps
   * leave. Endpoints and workspaces without room are left out, disabled endpoints too (their
   * deliveries wait, and go out once the endpoint is enabled again), and so are the deliveries
   * this worker holds (a lease of ours that ran out must not give us a second copy).
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
         SELECT p.endpoint_id, e.workspace_id,
           $7 - coalesce(b.taken, 0) AS room,
           $8 - coalesce(w.taken, 0) AS workspace_room
         FROM pending_endpoints p
         JOIN delivery.endpoints e ON e.id = p.endpoint_id AND e.enabled
         LEFT JOIN busy b USING (endpoint_id)
         LEFT JOIN busy_workspaces w ON w.workspace_id = e.workspace_id
         WHERE p.next_attempt_at <= now()
           AND p.endpoint_id <> ALL ($9::text[])
           AND e.workspace_id <> ALL ($10::text[])),
       candidates AS (
         SELECT c.id, c.next_attempt_at, d.workspace_id, d.workspace_room,
           row_number() OVER (PARTITION BY d.endpoint_id ORDER BY c.next_attempt_at) AS n
         FROM due_endpoints d,
           LATERAL (SELECT id, next_attempt_at FROM delivery.deliveries
                    WHERE endpoint_id = d.endpoint_id AND status = 'pending'
                      AND next_attempt_at <= now()
                      AND (lease_until IS NULL OR lease_until < now())
                      AND id <> ALL ($11::text[])
                    ORDER BY next_attempt_at LIMIT d.room) c
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
       FROM delivery.endpoints e
       WHERE d.id = ANY (ARRAY (SELECT id FROM locked)) AND e.id = d.endpoint_id AND e.enabled
       RETURNING d.id, d.endpoint_id AS "endpointId", d.workspace_id AS "workspaceId", d.event,
         d.payload, d.attempts, e.url, e.secret, d.lease_until::text AS lease`,
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
   */
  async record(attempts: AttemptRecord[]): Promise<void> {
    await this.db.query(
      `WITH attempt AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[],
           $5::timestamptz[], $6::int[], $7::int[], $8::text[], $9::text[], $10::timestamptz[])
           AS a (delivery_id, attempt, status, wait_ms, started_at, duration_ms, status_code,
             error, response_body, lease)),
       moved AS (
         UPDATE delivery.deliveries d
         SET attempts = a.attempt, status = a.status, lease_until = NULL,
             next_attempt_at = now() + a.wait_ms * interval '1 millisecond'
         FROM attempt a
         WHERE d.id = a.delivery_id AND d.attempts = a.attempt - 1
           AND (d.lease_until = a.lease OR d.lease_until IS NULL OR d.lease_until <= now())
         RETURNING a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code,
           a.error, a.response_body)
       INSERT INTO delivery.delivery_attempts
         (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body)
       SELECT * FROM moved
       ON CONFLICT (delivery_id, attempt) DO NOTHING`,
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
      ],
    );
  }
}
