import type { EventData, EventKey } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import type { EntityManager } from 'typeorm';

/**
 * Events are rows written in the same transaction as the change they describe; the relay
 * publishes them afterwards. A change that rolls back therefore never announces itself, and a
 * broker outage never loses an event. `data` is the payload class of the event's key
 * (EVENT_CATALOG in libs/contracts), which the webhook catalog documents.
 */
export async function writeEvent<K extends EventKey>(
  manager: EntityManager,
  workspaceId: string,
  event: K,
  data: EventData<K>,
): Promise<string> {
  const id = newId('evt');
  await manager.query(
    `INSERT INTO register.outbox (id, workspace_id, event, data) VALUES ($1, $2, $3, $4)`,
    [id, workspaceId, event, JSON.stringify(data)],
  );
  return id;
}
