import {
  eventEnvelopeSchema,
  EVENT_DATA_SCHEMAS,
  type DeliverableEvent,
} from '@custodian/contracts';
import type { TSchema } from '@sinclair/typebox';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Contract checks for tests: a value against a schema of libs/contracts, as the OpenAPI
 * document states it (JSON Schema draft 2020-12, formats checked, not strict). The result is
 * the list of violations, so `expect(schemaErrors(...)).toEqual([])` shows what differs.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const compiled = new WeakMap<TSchema, ValidateFunction>();
const envelopes = new Map<string, TSchema>();

function validator(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Violations of `schema` by `value`, as `<path> <message>` lines; empty when it conforms. */
export function schemaErrors(schema: TSchema, value: unknown): string[] {
  const validate = validator(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) =>
    `${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${
      Object.keys(error.params).length ? JSON.stringify(error.params) : ''
    }`.trim(),
  );
}

/**
 * Violations of a received webhook body (parsed) against the envelope schema of the event it
 * names; an event key outside the catalog is itself a violation.
 */
export function envelopeErrors(envelope: unknown): string[] {
  const event = (envelope as { event?: unknown } | null)?.event;
  if (typeof event !== 'string' || !Object.hasOwn(EVENT_DATA_SCHEMAS, event)) {
    return [`/event ${JSON.stringify(event)} is not a deliverable event`];
  }
  let schema = envelopes.get(event);
  if (!schema) {
    schema = eventEnvelopeSchema(event as DeliverableEvent);
    envelopes.set(event, schema);
  }
  return schemaErrors(schema, envelope);
}
