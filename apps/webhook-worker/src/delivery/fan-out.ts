import type { EventEnvelope, PublishedEvent } from '@custodian/contracts';
import {
  currentMessageContext,
  runWithRequestId,
  type MessageContext,
} from '@custodian/observability';
import { newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { subscribers } from '../webhooks/endpoint.store';
import { DeliveryScheduler } from './delivery-scheduler';
import { insertDeliveries } from './delivery.store';

/** An event and the endpoints it is to be delivered to. */
export interface FanOutItem {
  event: PublishedEvent;
  endpointIds: string[];
  /**
   * What its message's headers carried (null: nothing); absent: the current request's (a Test
   * ping's, written by the console request that sent it).
   */
  context?: MessageContext | null;
}

/**
 * Turns events into deliveries: one row per enabled endpoint of the workspace subscribed to
 * the event (or to `*`). A batch of events costs two statements whatever its size: one finds
 * the subscribers of all of them, one stores all their deliveries. UNIQUE (event_id,
 * endpoint_id) with ON CONFLICT DO NOTHING makes a redelivered event message create nothing
 * twice. New deliveries wake the scheduler of this worker at once.
 */
@Injectable()
export class FanOut {
  constructor(
    private readonly db: DataSource,
    private readonly scheduler: DeliveryScheduler,
  ) {}

  /**
   * The subscribers of each (workspace, event) pair, in one statement; keyed by
   * subscriptionKey. Pairs without subscribers are absent.
   */
  async subscribersOf(
    events: ReadonlyArray<{ workspace_id: string; event: string }>,
  ): Promise<Map<string, string[]>> {
    const pairs = new Map<string, { workspace: string; event: string }>();
    for (const { workspace_id, event } of events) {
      pairs.set(subscriptionKey(workspace_id, event), { workspace: workspace_id, event });
    }
    const found = new Map<string, string[]>();
    if (pairs.size === 0) return found;
    const rows = await subscribers(
      this.db,
      [...pairs.values()].map((p) => p.workspace),
      [...pairs.values()].map((p) => p.event),
    );
    for (const row of rows) {
      const key = subscriptionKey(row.workspace_id, row.event);
      const ids = found.get(key) ?? [];
      ids.push(row.id);
      found.set(key, ids);
    }
    return found;
  }

  /** Stores one delivery per endpoint; returns how many were new. */
  store(event: PublishedEvent, endpointIds: string[]): Promise<number> {
    return this.storeMany([{ event, endpointIds }]);
  }

  /** Stores the deliveries of several events in one statement; returns how many were new. */
  async storeMany(items: readonly FanOutItem[]): Promise<number> {
    const ids: string[] = [];
    const eventIds: string[] = [];
    const endpointIds: string[] = [];
    const workspaceIds: string[] = [];
    const events: string[] = [];
    const payloads: string[] = [];
    const contexts: Array<string | null> = [];
    const current = currentMessageContext();
    for (const { event, endpointIds: endpoints, context = current } of items) {
      if (endpoints.length === 0) continue;
      const envelope: EventEnvelope = {
        id: event.id,
        event: event.event,
        created_at: event.created_at,
        data: event.data,
      };
      const payload = JSON.stringify(envelope);
      const contextJson = context ? JSON.stringify(context) : null;
      for (const endpointId of endpoints) {
        ids.push(newId('dlv'));
        eventIds.push(event.id);
        endpointIds.push(endpointId);
        workspaceIds.push(event.workspace_id);
        events.push(event.event);
        payloads.push(payload);
        contexts.push(contextJson);
      }
    }
    if (ids.length === 0) return 0;
    const rows = await insertDeliveries(this.db, {
      ids,
      eventIds,
      endpointIds,
      workspaceIds,
      events,
      payloads,
      contexts,
    });
    // Committed: send them now rather than at the scheduler's next interval.
    // Outside the request that stored them: the scheduler's work is for every delivery.
    if (rows.length > 0) runWithRequestId(undefined, () => void this.scheduler.tick());
    return rows.length;
  }
}

/** The key of a (workspace, event) pair in subscribersOf's answer. */
export function subscriptionKey(workspaceId: string, event: string): string {
  return `${workspaceId}\u0000${event}`;
}
