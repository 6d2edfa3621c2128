import type { EventKey } from '@custodian/contracts';
import { newId } from '@custodian/runtime';
import type { EntityManager } from 'typeorm';

/**
 * Events are rows written in the same transaction as the change they describe; the relay
 * publishes them afterwards. A change that rolls back therefore never announces itself, and a
 * broker outage never loses an event.
 */
export async function writeEvent(
  manager: EntityManager,
  workspaceId: string,
  event: EventKey,
  data: object,
): Promise<string> {
  const id = newId('evt');
  await manager.query(
    `INSERT INTO register.outbox (id, workspace_id, event, data) VALUES ($1, $2, $3, $4)`,
    [id, workspaceId, event, JSON.stringify(data)],
  );
  return id;
}
