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
import {
  insertDeliveries,
  insertEventPayloads,
  type NewDeliveries,
  type NewEventPayloads,
} from './delivery.store';

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

/** Deliveries stored per statement: a batch's statements stay small however it fans out. */
export const DELIVERY_CHUNK = 1_000;
/** Payload bytes (about) stored per statement, an event at least. */
export const PAYLOAD_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Turns events into deliveries: one row per enabled endpoint of the workspace subscribed to
 * the event (or to `*`). An event's envelope is stored once (delivery.event_payloads), and its
 * deliveries reference it, so a delivery row is a few ids whatever the event weighs. A batch
 * of events costs one statement to find the subscribers of all of them, then its payloads and
 * its deliveries in statements of bounded size (PAYLOAD_CHUNK_BYTES, DELIVERY_CHUNK): what a
 * batch stores is bounded by the endpoints a plan allows, and no statement or string grows
 * with it. Payloads go first (the deliveries' foreign key); each statement commits alone and
 * skips what is already stored, so a batch cut short (a crash, Postgres gone) is completed
 * when its messages come again, and nothing is stored twice. New deliveries wake the
 * scheduler of this worker at once.
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

  /** Stores the deliveries of several events; returns how many were new. */
  async storeMany(items: readonly FanOutItem[]): Promise<number> {
    const current = currentMessageContext();
    const wanted = items.filter((item) => item.endpointIds.length > 0);
    if (wanted.length === 0) return 0;
    for (const chunk of payloadChunks(wanted, current)) {
      await insertEventPayloads(this.db, chunk);
    }
    let stored = 0;
    for (const chunk of deliveryChunks(wanted)) {
      stored += (await insertDeliveries(this.db, chunk)).length;
    }
    // Committed: send them now rather than at the scheduler's next interval.
    // Outside the request that stored them: the scheduler's work is for every delivery.
    if (stored > 0) runWithRequestId(undefined, () => void this.scheduler.tick());
    return stored;
  }
}

/** The items' payloads (each event once), in chunks of about PAYLOAD_CHUNK_BYTES. */
function* payloadChunks(
  items: readonly FanOutItem[],
  current: MessageContext | undefined,
): Generator<NewEventPayloads> {
  let chunk: NewEventPayloads = { eventIds: [], payloads: [], contexts: [] };
  let bytes = 0;
  const seen = new Set<string>();
  for (const { event, context = current } of items) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const envelope: EventEnvelope = {
      id: event.id,
      event: event.event,
      created_at: event.created_at,
      data: event.data,
    };
    const payload = JSON.stringify(envelope);
    if (bytes > 0 && bytes + payload.length > PAYLOAD_CHUNK_BYTES) {
      yield chunk;
      chunk = { eventIds: [], payloads: [], contexts: [] };
      bytes = 0;
    }
    chunk.eventIds.push(event.id);
    chunk.payloads.push(payload);
    chunk.contexts.push(context ? JSON.stringify(context) : null);
    bytes += payload.length;
  }
  if (chunk.eventIds.length > 0) yield chunk;
}

/** One delivery per (event, endpoint), in chunks of DELIVERY_CHUNK. */
function* deliveryChunks(items: readonly FanOutItem[]): Generator<NewDeliveries> {
  let chunk = emptyDeliveries();
  for (const { event, endpointIds } of items) {
    for (const endpointId of endpointIds) {
      chunk.ids.push(newId('dlv'));
      chunk.eventIds.push(event.id);
      chunk.endpointIds.push(endpointId);
      chunk.workspaceIds.push(event.workspace_id);
      chunk.events.push(event.event);
      if (chunk.ids.length === DELIVERY_CHUNK) {
        yield chunk;
        chunk = emptyDeliveries();
      }
    }
  }
  if (chunk.ids.length > 0) yield chunk;
}

function emptyDeliveries(): NewDeliveries {
  return { ids: [], eventIds: [], endpointIds: [], workspaceIds: [], events: [] };
}

/** The key of a (workspace, event) pair in subscribersOf's answer. */
export function subscriptionKey(workspaceId: string, event: string): string {
  return `${workspaceId}\u0000${event}`;
}
