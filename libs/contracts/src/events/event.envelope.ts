import { IsString } from 'class-validator';
import { DELIVERABLE_EVENTS, type DeliverableEvent } from './event.constants';
import { ContractSchema } from '../fields/contract-schema.decorator';
import { EnumField, IdField, OpenObjectField, TimestampField } from '../fields/field.decorators';

/**
 * The webhook delivery body (spec 2.6): `{id, event, created_at, data}`. The document states
 * it once per event key, with that key's `data` class (the `webhooks` section); this class
 * checks the envelope alone, whatever the key.
 */
@ContractSchema({ name: 'EventEnvelope' })
export class EventEnvelope<TData extends object = Record<string, unknown>> {
  @IdField('evt', 'Unique id of the event (`evt_` + a ULID); deduplicate on it.')
  id!: string;

  @EnumField(DELIVERABLE_EVENTS, { description: 'The event key.' })
  event!: DeliverableEvent;

  @TimestampField({ description: 'When the event happened; order by it (delivery order is not).' })
  created_at!: string;

  @OpenObjectField({ description: "The event's payload: the class of its key." })
  data!: TData;
}

/** What an outbox relay publishes: the envelope plus routing facts for the worker. */
export class PublishedEvent<
  TData extends object = Record<string, unknown>,
> extends EventEnvelope<TData> {
  @IsString() workspace_id!: string;
}
