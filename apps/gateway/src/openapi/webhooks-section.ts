import {
  DELIVERABLE_EVENTS,
  EVENT_CATALOG,
  EVENT_KEYS_BY_MODULE,
  EventEnvelope,
  PING_EVENT,
  eventDataExamples,
  eventDataModels,
  eventEnvelopeExample,
  type DeliverableEvent,
} from '@custodian/contracts';
import { getSchemaPath } from '@nestjs/swagger';

export type Schema = Record<string, unknown>;

/**
 * Every event key and the console's ping, each with its envelope: the EventEnvelope component
 * with the key as `event` and its data class as `data`. The generic envelope stays a component:
 * the change feed (GET /events) answers a list of them.
 */
export function webhooksOf(schemas: Record<string, Schema>): Record<string, unknown> {
  const envelopeName = getSchemaPath(EventEnvelope).split('/').pop() ?? '';
  const template = schemas[envelopeName];
  if (!template) throw new Error('the EventEnvelope component is missing');
  const moduleOf = new Map<string, string>(
    Object.entries(EVENT_KEYS_BY_MODULE).flatMap(([module, keys]) =>
      keys.map((key): [string, string] => [key, module]),
    ),
  );
  return Object.fromEntries(
    DELIVERABLE_EVENTS.map((key) => [
      key,
      {
        post: {
          operationId: `webhook_${key.replace('.', '_')}`,
          summary: key === PING_EVENT ? 'Test ping' : `${key} event`,
          description:
            (key === PING_EVENT
              ? "Sent by `webhook test` (the console's Test button) whatever the endpoint subscribes to."
              : `An event of the ${moduleOf.get(key)} module, sent to endpoints subscribed to \`${key}\` or \`*\`.`) +
            ' At-least-once: deduplicate on `X-Custodian-Delivery` or the envelope `id`. ' +
            'Verify `X-Custodian-Signature` before parsing the body.',
          tags: ['Webhooks'],
          parameters: DELIVERY_HEADERS.map(({ name }) => ({
            $ref: `#/components/parameters/${name}`,
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: envelopeOf(template, key) } },
          },
          responses: {
            '2XX': { description: 'Delivered. Any 2xx ends the delivery.' },
            '3XX': { description: 'Failed for good: redirects are not followed.' },
            '4XX': {
              description:
                'Failed for good (no retry), except 408 and 429, which are retried like 5xx.',
            },
            '5XX': {
              description:
                'Retried 300 ms and 900 ms later by default (3 attempts in all, 10 s timeout ' +
                'each; the same for network errors and timeouts).',
            },
          },
        },
      },
    ]),
  );
}

/** The delivery body of one key: the envelope, its `event` fixed, its `data` that key's. */
function envelopeOf(template: Schema, key: DeliverableEvent): Schema {
  const { description } = EVENT_CATALOG[key];
  const properties = template.properties as Record<string, Schema>;
  const refs = eventDataModels(key).map((model) => ({ $ref: getSchemaPath(model) }));
  return {
    ...template,
    title: `${key} event`,
    description: `The body of a \`${key}\` delivery. ${description}`,
    examples: [eventEnvelopeExample(key)],
    properties: {
      ...properties,
      event: { description: properties.event?.description, type: 'string', const: key },
      data: {
        ...(refs.length === 1 ? { allOf: refs } : { anyOf: refs }),
        title: `${key} data`,
        description,
        examples: eventDataExamples(key),
      },
    },
  };
}

/** The four headers of every delivery request (spec section 6.1, brand in the middle). */
export const DELIVERY_HEADERS = [
  deliveryHeader('X-Custodian-Event', 'The event key (also the envelope `event`).', {
    type: 'string',
  }),
  deliveryHeader(
    'X-Custodian-Delivery',
    'The delivery id (`dlv_…`), the same across the retries of one delivery.',
    { type: 'string', pattern: '^dlv_' },
  ),
  deliveryHeader(
    'X-Custodian-Timestamp',
    'Unix seconds when this attempt was signed; part of the signed string.',
    { type: 'string', pattern: '^\\d+$' },
  ),
  deliveryHeader(
    'X-Custodian-Signature',
    '`sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint secret.',
    { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
  ),
];

function deliveryHeader(name: string, description: string, schema: Schema) {
  return { name, in: 'header', required: true, description, schema };
}
