import type { ConsoleEndpointView, DisabledReason } from '@custodian/contracts';
import type { DataSource } from 'typeorm';

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
