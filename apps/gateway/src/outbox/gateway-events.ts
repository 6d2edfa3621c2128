import type { EventData, EventKey } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Events the gateway causes (plan changes, limits reached), as outbox rows; the relay
 * publishes them. A plan change writes its row in the transaction of the change. `data` must
 * be the event's payload class (EVENT_CATALOG in libs/contracts).
 */
@Injectable()
export class GatewayEvents {
  constructor(private readonly db: DataSource) {}

  async write<K extends EventKey>(
    event: K,
    workspaceId: string,
    data: EventData<K>,
    manager: EntityManager = this.db.manager,
  ): Promise<string> {
    const id = newId('evt');
    await manager.query(
      `INSERT INTO gateway.outbox (id, workspace_id, event, data) VALUES ($1, $2, $3, $4)`,
      [id, workspaceId, event, JSON.stringify(data)],
    );
    return id;
  }
}
