import type { EventEnvelope, PublishedEvent } from '@custodian/contracts';
import { newId } from '@custodian/runtime';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Turns an event into deliveries: one row per enabled endpoint of the workspace subscribed to
 * the event (or to `*`), all in one statement. UNIQUE (event_id, endpoint_id) with ON CONFLICT
 * DO NOTHING makes a redelivered event message create nothing twice.
 */
@Injectable()
export class FanOut {
  constructor(private readonly db: DataSource) {}

  /** Enabled endpoints of the workspace that want this event. */
  async subscribers(workspaceId: string, event: string): Promise<string[]> {
    const rows = await this.db.query<Array<{ id: string }>>(
      `SELECT id FROM delivery.endpoints
       WHERE workspace_id = $1 AND enabled AND (events @> ARRAY[$2]::text[] OR '*' = ANY(events))
       ORDER BY id`,
      [workspaceId, event],
    );
    return rows.map((row) => row.id);
  }

  /** Stores one delivery per endpoint; returns how many were new. */
  async store(event: PublishedEvent, endpointIds: string[]): Promise<number> {
    if (endpointIds.length === 0) return 0;
    const envelope: EventEnvelope = {
      id: event.id,
      event: event.event,
      created_at: event.created_at,
      data: event.data,
    };
    const rows = await this.db.query<Array<{ id: string }>>(
      `INSERT INTO delivery.deliveries (id, event_id, endpoint_id, workspace_id, event, payload)
       SELECT d.id, $3, d.endpoint_id, $4, $5, $6::jsonb
       FROM unnest($1::text[], $2::text[]) AS d (id, endpoint_id)
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING id`,
      [
        endpointIds.map(() => newId('dlv')),
        endpointIds,
        event.id,
        event.workspace_id,
        event.event,
        JSON.stringify(envelope),
      ],
    );
    return rows.length;
  }
}
