import {
  API_SCHEMAS,
  EVENT_KEYS,
  EVENT_KEYS_BY_MODULE,
  PING_EVENT,
  eventEnvelopeSchema,
  reasonPhrase,
  type DeliverableEvent,
} from '@custodian/contracts';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { API_KEY_SCHEME, BEARER_SCHEME, SCOPE_EXTENSION } from '../access/requires-scope.decorator';
import type { AccessPolicy } from '../access/access-hook';
import { REQUEST_BODIES, ROUTE_ERRORS, ref } from './api-docs.decorators';

/** The document as JSON: built once per process and served as is. */
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
};

type Schema = Record<string, unknown>;
interface Operation {
  operationId?: string;
  description?: string;
  security?: unknown[];
  requestBody?: unknown;
  parameters?: unknown[];
  responses: Record<string, Response>;
  [extension: `x-${string}`]: unknown;
}
type Response = ResponseObject | { $ref: string };
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

const LIMIT_HEADERS: Record<string, Schema> = {
  'X-RateLimit-Limit': header('The per-minute request ceiling of the plan.', 'integer'),
  'X-RateLimit-Remaining': header('Requests left in the current minute window.', 'integer'),
  'X-RateLimit-Reset': header('Unix time (seconds) at which the minute window resets.', 'integer'),
  'X-Quota-Limit': header('The monthly request quota, or `unlimited`.', 'quota'),
  'X-Quota-Used': header('Requests counted this calendar month (UTC).', 'integer'),
  'X-Quota-Remaining': header('Requests left this month, or `unlimited`.', 'quota'),
};

const COMMON_ERRORS: Record<number, string> = {
  400: 'Malformed request: a parameter or body field failed validation; the message names it.',
  401: 'The API key is missing, malformed, unknown or revoked.',
  403:
    'The key lacks the scope this route needs, or the plan no longer includes API access ' +
    '(checked on every request), or a plan limit would be exceeded.',
  404: "No such record in the key's workspace (ids of other workspaces included).",
  409: 'The change conflicts with an existing record (for example a duplicate asset tag).',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not `application/json`.',
  429:
    'The per-minute rate limit or the monthly quota is exceeded (the message names the limit ' +
    'and the plan), or too many failed authentications came from this address. Wait for ' +
    '`Retry-After` seconds.',
  503: 'A service behind the gateway is unavailable; retry with backoff.',
  504: 'A service behind the gateway did not answer in time; retry with backoff.',
};

/** Every route that takes a key can answer these, whatever it does. */
const KEYED_ROUTE_ERRORS = [401, 403, 429, 503, 504];
/** Every route with a JSON body can refuse it before it reaches the handler. */
const BODY_ERRORS = [400, 413, 415];

const DESCRIPTION = `The public REST API of Custodian, an asset register: assets, the people they
are issued to, and the workspace members who log in.

**Authentication.** Every route except this document takes an API key of one workspace, as
\`Authorization: Bearer <key>\` or \`x-api-key: <key>\`. A \`read\` key calls GET routes; a
\`write\` key calls every route.

**Limits.** Each key has a per-minute rate limit and a monthly quota from its workspace's plan;
every response to a keyed request carries the \`X-RateLimit-*\` and \`X-Quota-*\` headers, and a
request over a limit gets \`429\` with \`Retry-After\`.

**Errors.** Every error has the body \`{statusCode, error, message}\`; the message names the
field or limit at fault.

**Webhooks.** Events are delivered to your endpoints as signed POSTs; the \`webhooks\` section
lists every event key and its payload. See docs/receiving-webhooks.md for verifying them.`;

/**
 * The OpenAPI 3.1 document of the public API, generated from the code: routes, parameters and
 * security from the controllers' decorators (@nestjs/swagger), response and event schemas
 * from libs/contracts (TypeBox), request bodies from the class-validator DTOs the register
 * validates with. Nothing here is kept beside the code by hand except prose.
 */
export function buildOpenApiDocument(app: INestApplication): OpenApiDocument {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Custodian API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The API key.' },
      API_KEY_SCHEME,
    )
    .build();
  const generated = SwaggerModule.createDocument(app, config) as unknown as OpenApiDocument;
  return finish(generated);
}

function finish(document: OpenApiDocument): OpenApiDocument {
  const components = (document.components ?? {}) as Record<string, unknown>;
  components.schemas = { ...responseSchemas(), ...requestSchemas() };
  components.headers = {
    ...LIMIT_HEADERS,
    'Retry-After': header('Seconds to wait before the next request.', 'integer'),
  };
  components.responses = errorResponses();
  components.parameters = Object.fromEntries(
    DELIVERY_HEADERS.map((parameter) => [parameter.name, parameter]),
  );
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      completeOperation(path, method, operation);
    }
  }
  return {
    openapi: '3.1.0',
    info: { ...(document.info as object), license: { name: 'Proprietary' } },
    // Paths carry the /api/v1 prefix, so the server is the deployment's root.
    servers: [{ url: '/', description: 'This deployment' }],
    tags: tagsOf(document),
    security: [],
    paths: document.paths,
    webhooks: webhooks(),
    components,
  };
}

function completeOperation(path: string, method: string, operation: Operation): void {
  const access = operation[SCOPE_EXTENSION] as AccessPolicy | undefined;
  const routeErrors = (operation[ROUTE_ERRORS] as number[] | undefined) ?? [];
  delete operation[SCOPE_EXTENSION];
  delete operation[ROUTE_ERRORS];
  const statuses = new Set(routeErrors);
  if (access) KEYED_ROUTE_ERRORS.forEach((status) => statuses.add(status));
  // Fastify parses a body on any POST or PATCH, so even a route that takes none refuses one it
  // cannot read.
  if (operation.requestBody || method === 'post' || method === 'patch') {
    BODY_ERRORS.forEach((status) => statuses.add(status));
  }
  // A path parameter with broken percent-encoding is refused before the route runs.
  if (path.includes('{')) statuses.add(400);
  for (const status of [...statuses].sort()) {
    operation.responses[String(status)] = access
      ? { $ref: `#/components/responses/${errorResponseName(status)}` }
      : publicErrorResponse(status);
  }
  if (!access) return;
  const scopeNote =
    access.scope === 'write'
      ? 'Needs a `write` key.'
      : 'Needs a `read` or `write` key.' +
        (access.countsTowardQuota ? '' : ' Not counted against the monthly quota.');
  operation.description = [operation.description, scopeNote].filter(Boolean).join('\n\n');
  for (const response of Object.values(operation.responses)) {
    if (!('$ref' in response)) response.headers = limitHeaderRefs();
  }
}

/**
 * Keyed responses carry the limit headers (429 also Retry-After). The plan-gate 403 and a
 * deployment whose Redis is down send none, so they are documented but not required.
 */
function limitHeaderRefs(): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );
}

/**
 * An error of a route without a key: no quota headers; the per-address guard's 429 carries
 * its window and Retry-After.
 */
function publicErrorResponse(status: number): ResponseObject {
  const response: ResponseObject = {
    description: COMMON_ERRORS[status] ?? 'Error.',
    content: errorContent(),
  };
  if (status === 429) {
    response.headers = Object.fromEntries(
      ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'].map(
        (name) => [name, { $ref: `#/components/headers/${name}` }],
      ),
    );
  }
  return response;
}

const errorContent = () => ({ 'application/json': { schema: ref('Error') } });

const errorResponseName = (status: number) => reasonPhrase(status).replace(/[^A-Za-z]/g, '');

/** The error answers of keyed routes, named once and referenced by every operation. */
function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(COMMON_ERRORS).map(([code, description]) => {
      const status = Number(code);
      const headers = limitHeaderRefs();
      if (status === 429) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
      return [errorResponseName(status), { description, headers, content: errorContent() }];
    }),
  );
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Keys: 'Checking an API key and what it may do.',
  Assets: 'Physical assets, their status, custody and custom fields.',
  People: 'The people assets are issued to (not logins).',
  Members: 'The logins of the workspace and their roles.',
  Invitations: 'The link of the invitation e-mail; needs no API key.',
  Webhooks: 'Signed event deliveries to your endpoints (see the `webhooks` section).',
};

function tagsOf(document: OpenApiDocument): Array<{ name: string; description: string }> {
  const names = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const tag of (operation as { tags?: string[] }).tags ?? []) names.add(tag);
    }
  }
  names.add('Webhooks');
  return [...names].map((name) => {
    const description = TAG_DESCRIPTIONS[name];
    if (!description) throw new Error(`tag ${name} has no description in TAG_DESCRIPTIONS`);
    return { name, description };
  });
}

/** Each component schema object by identity, so one used inside another becomes a $ref. */
const COMPONENT_NAMES = new Map<object, string>(
  Object.entries(API_SCHEMAS).map(([name, schema]) => [schema as object, name]),
);

/** Response schemas of libs/contracts; a schema used inside another becomes a $ref to it. */
function responseSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(API_SCHEMAS).map(([name, schema]) => [
      name,
      toJsonSchema(schema, schema as object),
    ]),
  );
}

/**
 * JSON of a TypeBox schema (its symbol keys dropped), with every sub-schema that is itself a
 * component replaced by a $ref, so the document names shared shapes once.
 */
function toJsonSchema(value: unknown, self?: object): unknown {
  if (Array.isArray(value)) return value.map((item) => toJsonSchema(item));
  if (value === null || typeof value !== 'object') return value;
  const name = COMPONENT_NAMES.get(value);
  if (name !== undefined && value !== self) return ref(name as never);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      // Examples are data, not schemas: copied as they are.
      key === 'examples' || key === 'default' || key === 'const' ? item : toJsonSchema(item),
    ]),
  );
}

/**
 * The request bodies, from the class-validator metadata of the DTOs the register validates
 * with. The register's validator refuses unknown fields (whitelist) and lets `null` through
 * an @IsOptional field (null clears it), so the schemas say the same.
 */
function requestSchemas(): Record<string, unknown> {
  const all = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' });
  const storage = getMetadataStorage();
  const result: Record<string, unknown> = {};
  for (const [name, target] of Object.entries(REQUEST_BODIES)) {
    const schema = all[name] as Schema | undefined;
    if (!schema) throw new Error(`no class-validator metadata for ${name}`);
    const optional = new Set(
      storage
        .getTargetValidationMetadatas(target, '', true, false)
        .filter((meta) => meta.name === 'isOptional')
        .map((meta) => meta.propertyName),
    );
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [property, propertySchema] of Object.entries(properties)) {
      if (optional.has(property)) {
        properties[property] = { anyOf: [propertySchema, { type: 'null' }] };
      }
    }
    result[name] = { ...schema, additionalProperties: false };
  }
  return result;
}

/** Every event key and the console's ping, each with its envelope and `data` schema. */
function webhooks(): Record<string, unknown> {
  const moduleOf = new Map<string, string>(
    Object.entries(EVENT_KEYS_BY_MODULE).flatMap(([module, keys]) =>
      keys.map((key): [string, string] => [key, module]),
    ),
  );
  const keys: DeliverableEvent[] = [...EVENT_KEYS, PING_EVENT];
  return Object.fromEntries(
    keys.map((key) => [
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
            content: {
              'application/json': { schema: toJsonSchema(eventEnvelopeSchema(key)) },
            },
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

/** The four headers of every delivery request (spec section 6.1, brand in the middle). */
const DELIVERY_HEADERS = [
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

function header(description: string, kind: 'integer' | 'quota'): Schema {
  return {
    description,
    schema:
      kind === 'integer'
        ? { type: 'string', pattern: '^\\d+$' }
        : { type: 'string', pattern: '^(\\d+|unlimited)$' },
  };
}
