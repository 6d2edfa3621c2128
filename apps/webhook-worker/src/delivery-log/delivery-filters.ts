import {
  DomainError,
  PING_EVENT,
  isEventKey,
  type DeliveryFilters,
  type DeliveryStatus,
} from '@custodian/contracts';
import type { DeliveryWhere } from '../delivery/delivery.store';
import type { DeliveryCursor } from './delivery-cursor';

export interface DeliveryCriteria extends DeliveryFilters {
  workspace: string;
  status?: DeliveryStatus;
  before?: DeliveryCursor;
}

/**
 * The WHERE clause of the criteria. Only the filters given become conditions, so each query
 * is planned for what it asks: by the workspace's log index, or the endpoint's. An event that
 * is no event key is refused by name; from after to too. `from` and `to` both count.
 */
export function deliveryWhere(criteria: DeliveryCriteria): DeliveryWhere {
  const parameters: unknown[] = [criteria.workspace];
  const conditions = ['d.workspace_id = $1'];
  const add = (condition: (n: string) => string, ...values: unknown[]) => {
    const first = parameters.length + 1;
    parameters.push(...values);
    conditions.push(condition(`$${first}`).replaceAll('$next', `$${first + 1}`));
  };
  if (criteria.endpoint !== undefined) add((n) => `d.endpoint_id = ${n}`, criteria.endpoint);
  if (criteria.event !== undefined) {
    if (criteria.event !== PING_EVENT && !isEventKey(criteria.event)) {
      throw new DomainError(
        'invalid_input',
        `event must be an event key (e.g. asset.created) or ping; ${criteria.event} is neither`,
      );
    }
    add((n) => `d.event = ${n}`, criteria.event);
  }
  if (criteria.status !== undefined) add((n) => `d.status = ${n}`, criteria.status);
  if (criteria.from !== undefined && criteria.to !== undefined) {
    if (Date.parse(criteria.from) > Date.parse(criteria.to)) {
      throw new DomainError('invalid_input', 'from must not be later than to');
    }
  }
  if (criteria.from !== undefined) add((n) => `d.created_at >= ${n}::timestamptz`, criteria.from);
  if (criteria.to !== undefined) add((n) => `d.created_at <= ${n}::timestamptz`, criteria.to);
  if (criteria.before !== undefined) {
    add(
      (n) => `(d.created_at, d.id) < (${n}::timestamptz, $next::text)`,
      criteria.before.createdAt,
      criteria.before.id,
    );
  }
  return { sql: conditions.join(' AND '), parameters };
}
