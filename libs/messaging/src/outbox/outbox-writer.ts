import {
  PLAN_FACTS_ROUTING_KEY,
  type EventData,
  type EventKey,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import { currentMessageContext } from '@custodian/observability';
import { newId } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';

/**
 * Writes events as outbox rows in the transaction of the change they describe; the relay
 * publishes them afterwards. A change that rolls back therefore never announces itself, and a
 * broker outage never loses an event. The row keeps the context of the request that wrote it
 * (its request id), which travels on with the event. `data` is the payload class of the event's key
 * (EVENT_CATALOG in libs/contracts), which the webhook catalog documents.
 */
export class OutboxWriter {
  /** `schema`: the app's schema, whose `outbox` table this writes. */
  constructor(readonly schema: string) {}

  write<K extends EventKey>(
    manager: EntityManager,
    workspaceId: string,
    event: K,
    data: EventData<K>,
  ): Promise<string> {
    return this.insert(manager, workspaceId, event, data);
  }

  /**
   * A workspace's plan facts (the gateway's), for the apps that keep a copy (ADR 0019):
   * published like an event, on an internal routing key no webhook subscribes to.
   */
  writePlanFacts(manager: EntityManager, facts: WorkspacePlanFacts): Promise<string> {
    return this.insert(manager, facts.workspace_id, PLAN_FACTS_ROUTING_KEY, facts);
  }

  private async insert(
    manager: EntityManager,
    workspaceId: string,
    event: string,
    data: object,
  ): Promise<string> {
    const id = newId('evt');
    const context = currentMessageContext();
    await manager.query(
      `INSERT INTO ${this.schema}.outbox (id, workspace_id, event, data, context)
       VALUES ($1, $2, $3, $4, $5)`,
      [id, workspaceId, event, JSON.stringify(data), context ? JSON.stringify(context) : null],
    );
    return id;
  }
}
