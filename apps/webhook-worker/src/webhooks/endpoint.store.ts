import type { ConsoleEndpointView, DisabledReason } from '@custodian/contracts';
import { queryOne, queryRows } from '@custodian/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { EndpointEntity } from './endpoint.entity';

/*
 * delivery.endpoints: its SQL and its row types, and the console's view of an endpoint. The
 * statements that lease deliveries join it and keep its run of failures: they are the leases'
 * (delivery/delivery-leases.ts).
 */

// ---------------------------------------------------------------------------------------------
// Endpoints (EndpointsService)

/** An endpoint without its secrets. */
export type EndpointRow = Pick<
  EndpointEntity,
  'id' | 'workspace_id' | 'url' | 'events' | 'description' | 'enabled' | 'created_at'
>;

const ENDPOINT_COLUMNS = 'id, workspace_id, url, events, description, enabled, created_at';

/** The columns a creation writes; `secret` encrypted. */
export type NewEndpointRow = Pick<
  EndpointEntity,
  'id' | 'workspace_id' | 'url' | 'events' | 'description' | 'secret'
>;

export function insertEndpoint(tx: EntityManager, endpoint: NewEndpointRow): Promise<EndpointRow> {
  return queryOne<EndpointRow>(
    tx,
    `INSERT INTO delivery.endpoints (id, workspace_id, url, events, description, secret)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT_COLUMNS}`,
    [
      endpoint.id,
      endpoint.workspace_id,
      endpoint.url,
      endpoint.events,
      endpoint.description,
      endpoint.secret,
    ],
  );
}

/**
 * Serializes the changes to a workspace's set of endpoints (create, URL change) until the
 * transaction ends: its count and its URLs stay as read until then.
 */
export async function lockWorkspaceEndpoints(tx: EntityManager, workspace: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('delivery.endpoints:' || $1, 0))`, [
    workspace,
  ]);
}

/** How many endpoints the workspace has (enabled or not). */
export async function countEndpoints(tx: EntityManager, workspace: string): Promise<number> {
  const { n } = await queryOne<{ n: number }>(
    tx,
    `SELECT count(*)::int AS n FROM delivery.endpoints WHERE workspace_id = $1`,
    [workspace],
  );
  return n;
}

/** The workspace's endpoint for the URL but `except`, if it has one. */
export async function endpointWithUrl(
  tx: EntityManager,
  workspace: string,
  url: string,
  except: string | null,
): Promise<Pick<EndpointRow, 'id'> | undefined> {
  const [row] = await queryRows<Pick<EndpointRow, 'id'>>(
    tx,
    `SELECT id FROM delivery.endpoints
       WHERE workspace_id = $1 AND url = $2 AND ($3::text IS NULL OR id <> $3)
       ORDER BY created_at, id LIMIT 1`,
    [workspace, url, except],
  );
  return row;
}

/** Deletes it; its deliveries and their attempts go with it (foreign keys, ON DELETE CASCADE). */
export async function deleteEndpoint(tx: EntityManager, id: string): Promise<void> {
  await tx.query(`DELETE FROM delivery.endpoints WHERE id = $1`, [id]);
}

/** The endpoint, locked for the rest of the transaction. */
export function lockEndpoint(tx: EntityManager, id: string): Promise<EndpointRow> {
  return queryOne<EndpointRow>(
    tx,
    `SELECT ${ENDPOINT_COLUMNS} FROM delivery.endpoints WHERE id = $1 FOR UPDATE`,
    [id],
  );
}

/** What an update changes: null keeps the column (`description` only when `setDescription`). */
export interface EndpointChanges {
  id: string;
  url: string | null;
  events: string[] | null;
  setDescription: boolean;
  description: string | null;
  enabled: boolean | null;
}

/**
 * `enabled: false` disables it by hand (`manual`); `enabled: true` enables it, also one
 * disabled for its failures, and starts its run afresh.
 */
export function updateEndpoint(tx: EntityManager, changes: EndpointChanges): Promise<EndpointRow> {
  return queryOne<EndpointRow>(
    tx,
    `UPDATE delivery.endpoints SET
         url = coalesce($2, url),
         -- A duplicate from before URLs were unique that takes a new URL is unique again.
         duplicate_url = duplicate_url AND ($2 IS NULL OR $2 = url),
         events = coalesce($3::text[], events),
         description = CASE WHEN $4 THEN $5 ELSE description END,
         enabled = coalesce($6::boolean, enabled),
         disabled_reason = CASE WHEN $6::boolean IS NULL THEN disabled_reason
                                WHEN $6::boolean THEN NULL ELSE 'manual' END,
         disabled_at = CASE WHEN $6::boolean IS NULL THEN disabled_at
                            WHEN $6::boolean THEN NULL ELSE coalesce(disabled_at, now()) END,
         consecutive_failures = CASE WHEN $6::boolean AND NOT enabled THEN 0
                                     ELSE consecutive_failures END,
         failing_since = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE failing_since END
       WHERE id = $1 RETURNING ${ENDPOINT_COLUMNS}`,
    [
      changes.id,
      changes.url,
      changes.events,
      changes.setDescription,
      changes.description,
      changes.enabled,
    ],
  );
}

/** The workspace's endpoints, oldest first. */
export function workspaceEndpoints(db: DataSource, workspace: string): Promise<EndpointRow[]> {
  return db.query<EndpointRow[]>(
    `SELECT id, workspace_id, url, events, description, enabled, created_at
       FROM delivery.endpoints WHERE workspace_id = $1 ORDER BY created_at, id`,
    [workspace],
  );
}

/** The endpoint, of the workspace when one is named (null: any). */
export async function findEndpoint(
  db: DataSource,
  id: string,
  workspace: string | null,
): Promise<EndpointRow | undefined> {
  const rows = await db.query<EndpointRow[]>(
    `SELECT ${ENDPOINT_COLUMNS}
       FROM delivery.endpoints WHERE id = $1 AND ($2::text IS NULL OR workspace_id = $2)`,
    [id, workspace],
  );
  return rows[0];
}

// ---------------------------------------------------------------------------------------------
// The console's view

interface EndpointViewRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  consecutive_failures: number;
  previous_expires_at: Date | null;
  created_at: Date;
  delivered: number;
  finished: number;
}

/**
 * A workspace's endpoints as the console shows them (one, given its id), with the outcome of
 * their last 24 h: per endpoint one range of deliveries_finished_by_endpoint, read from the
 * index alone (it carries the status), so the list costs what that day's deliveries do.
 */
export async function endpointViews(
  db: DataSource,
  workspace: string,
  id?: string,
): Promise<ConsoleEndpointView[]> {
  const rows = await db.query<EndpointViewRow[]>(
    `SELECT e.id, e.url, e.description, e.events, e.enabled, e.disabled_reason, e.disabled_at,
       e.consecutive_failures, e.created_at,
       CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_expires_at END
         AS previous_expires_at,
       day.delivered, day.finished
     FROM delivery.endpoints e,
       LATERAL (SELECT count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
                  count(*)::int AS finished
                FROM delivery.deliveries d
                WHERE d.endpoint_id = e.id AND d.status <> 'pending'
                  AND d.finished_at > now() - interval '24 hours') day
     WHERE e.workspace_id = $1 AND ($2::text IS NULL OR e.id = $2)
     ORDER BY e.created_at, e.id`,
    [workspace, id ?? null],
  );
  return rows.map(toView);
}

function toView(row: EndpointViewRow): ConsoleEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at?.toISOString() ?? null,
    consecutive_failures: row.consecutive_failures,
    success_rate: row.finished > 0 ? row.delivered / row.finished : null,
    deliveries_24h: row.finished,
    secret_rotation: row.previous_expires_at
      ? { previous_expires_at: row.previous_expires_at.toISOString() }
      : null,
    created_at: row.created_at.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// Signing secrets (SigningSecretService, SigningSecretRekeyer, DeliveryPruner)

/** An endpoint's secrets, encrypted; the previous one only while its overlap lasts. */
export type StoredSecrets = Pick<
  EndpointEntity,
  'secret' | 'previous_secret' | 'previous_secret_expires_at'
>;

/** The endpoint's secrets as they sign now; undefined for no such endpoint of the workspace. */
export async function storedSecrets(
  db: DataSource,
  workspace: string,
  id: string,
): Promise<StoredSecrets | undefined> {
  const [stored] = await db.query<StoredSecrets[]>(
    `SELECT secret,
         CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret,
         CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END
           AS previous_secret_expires_at
       FROM delivery.endpoints WHERE id = $1 AND workspace_id = $2`,
    [id, workspace],
  );
  return stored;
}

/**
 * `secret` (encrypted) becomes the endpoint's; the current one signs too for `overlapHours`
 * (0: not at all). Undefined for no such endpoint of the workspace.
 */
export async function rotateSecret(
  tx: EntityManager,
  workspace: string,
  id: string,
  secret: string,
  overlapHours: number,
): Promise<(StoredSecrets & Pick<EndpointEntity, 'url'>) | undefined> {
  const [row] = await queryRows<StoredSecrets & Pick<EndpointEntity, 'url'>>(
    tx,
    `UPDATE delivery.endpoints SET
           previous_secret = CASE WHEN $4::int > 0 THEN secret END,
           previous_secret_expires_at =
             CASE WHEN $4::int > 0 THEN now() + $4::int * interval '1 hour' END,
           secret = $3
         WHERE id = $1 AND workspace_id = $2
         RETURNING secret, previous_secret, previous_secret_expires_at, url`,
    [id, workspace, secret, overlapHours],
  );
  return row;
}

/**
 * At most `batch` endpoints after `after` (by id) with a secret, current or previous, not
 * encrypted under the key `current`.
 */
export function secretsToRekey(
  db: DataSource,
  after: string,
  current: string,
  batch: number,
): Promise<Array<Pick<EndpointEntity, 'id' | 'secret' | 'previous_secret'>>> {
  return db.query<Array<Pick<EndpointEntity, 'id' | 'secret' | 'previous_secret'>>>(
    `SELECT id, secret, previous_secret FROM delivery.endpoints
           WHERE id > $1 AND (split_part(secret, ':', 2) <> $2
             OR split_part(previous_secret, ':', 2) <> $2)
           ORDER BY id LIMIT $3`,
    [after, current, batch],
  );
}

/** An endpoint's secrets as read (`old`) and re-encrypted (`next`). */
export interface RekeyedSecrets {
  id: string;
  old: string;
  next: string;
  oldPrevious: string | null;
  nextPrevious: string | null;
}

/**
 * Writes the re-encrypted secrets in one statement, each row only if its secrets are still
 * the ones read; returns how many rows were written.
 */
export async function writeRekeyed(
  db: DataSource,
  changes: readonly RekeyedSecrets[],
): Promise<number> {
  // TypeORM's Postgres driver answers an UPDATE with [rows, affectedCount].
  const [, count] = await db.query<[unknown[], number]>(
    `UPDATE delivery.endpoints e SET secret = c.next, previous_secret = c.next_previous
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
               AS c (id, old, next, old_previous, next_previous)
             WHERE e.id = c.id AND e.secret = c.old
               AND e.previous_secret IS NOT DISTINCT FROM c.old_previous`,
    [
      changes.map((c) => c.id),
      changes.map((c) => c.old),
      changes.map((c) => c.next),
      changes.map((c) => c.oldPrevious),
      changes.map((c) => c.nextPrevious),
    ],
  );
  return count;
}

/** Drops the previous secrets whose overlap has ended. */
export async function dropExpiredSecrets(db: DataSource): Promise<void> {
  await db.query(
    `UPDATE delivery.endpoints
         SET previous_secret = NULL, previous_secret_expires_at = NULL
         WHERE previous_secret_expires_at <= now()`,
  );
}

// ---------------------------------------------------------------------------------------------
// Subscribers (delivery/fan-out.ts)

export type SubscriberRow = Pick<EndpointEntity, 'workspace_id' | 'id'> & { event: string };

/**
 * The enabled endpoints subscribed to each (workspace, event) pair (to the event or to `*`):
 * `workspaces[i]` and `events[i]` make a pair. One statement for all of them.
 */
export function subscribers(
  db: DataSource,
  workspaces: string[],
  events: string[],
): Promise<SubscriberRow[]> {
  return db.query<SubscriberRow[]>(
    `SELECT w.workspace_id, w.event, e.id
       FROM unnest($1::text[], $2::text[]) AS w (workspace_id, event)
       JOIN delivery.endpoints e ON e.workspace_id = w.workspace_id AND e.enabled
         AND (e.events @> ARRAY[w.event] OR '*' = ANY(e.events))
       ORDER BY e.id`,
    [workspaces, events],
  );
}
