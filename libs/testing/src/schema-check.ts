import {
  DELIVERABLE_EVENTS,
  EventEnvelope,
  contractErrors,
  eventDataModels,
  oneOfErrors,
  type ContractClass,
  type DeliverableEvent,
} from '@custodian/contracts';

/**
 * Contract checks for tests: a value against a class of libs/contracts (`[Class]`: an array of
 * them), with the checks its field decorators declare, unknown fields refused at every level.
 * The result is the list of violations, so `expect(schemaErrors(...)).toEqual([])` shows what
 * differs.
 */
export function schemaErrors(
  model: ContractClass | readonly [ContractClass],
  value: unknown,
): string[] {
  if (!Array.isArray(model)) return contractErrors(model as ContractClass, value);
  if (!Array.isArray(value)) return ['/ must be an array'];
  const [item] = model as readonly [ContractClass];
  return value.flatMap((element, index) => contractErrors(item, element, `/${index}`));
}

/** Violations of an event's `data` against its class (or every class it may be one of). */
export function eventDataErrors(key: DeliverableEvent, data: unknown): string[] {
  return oneOfErrors(eventDataModels(key), data);
}

/**
 * Violations of a received webhook body (parsed): its envelope, and its `data` against the
 * class of the event it names; an event key outside the catalog is itself a violation.
 */
export function envelopeErrors(envelope: unknown): string[] {
  const event = (envelope as { event?: unknown } | null)?.event;
  if (!(DELIVERABLE_EVENTS as readonly unknown[]).includes(event)) {
    return [`/event ${JSON.stringify(event)} is not a deliverable event`];
  }
  const data = (envelope as { data?: unknown }).data;
  return [
    ...contractErrors(EventEnvelope, envelope),
    ...oneOfErrors(eventDataModels(event as DeliverableEvent), data, '/data'),
  ];
}
