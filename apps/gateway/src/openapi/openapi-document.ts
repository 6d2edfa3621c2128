import {
  DELIVERABLE_EVENTS,
  ErrorBody,
  EventEnvelope,
  componentExamples,
  eventDataModels,
  reasonPhrase,
} from '@custodian/contracts';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, getSchemaPath } from '@nestjs/swagger';
import { API_KEY_SCHEME, BEARER_SCHEME, SCOPE_EXTENSION } from '../access/requires-scope.decorator';
import type { AccessPolicy } from '../access/access-hook';
import { ROUTE_ERRORS } from '../http/api-docs.decorators';
import { DELIVERY_HEADERS, webhooksOf, type Schema } from './webhooks-section';
import { PUBLIC_API_MODULES } from './public-api-modules';

/** The document as JSON: built once per process and served as is. */
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Operation>>;
};

interface Operation {
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
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
  'X-RateLimit-Limit': header(
    'The per-minute request ceiling of the plan, or `unlimited` for a workspace without one.',
    'quota',
  ),
  'X-RateLimit-Remaining': header(
    'Requests left in the current minute window, or `unlimited`.',
    'quota',
  ),
  'X-RateLimit-Reset': header('Unix time (seconds) at which the minute window resets.', 'integer'),
  'X-Quota-Limit': header('The monthly request quota, or `unlimited`.', 'quota'),
  'X-Quota-Used': header(
    'Requests counted this calendar month (UTC), including those served while the limits ' +
      'could not be applied.',
    'integer',
  ),
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
  410:
    'The feed cursor is older than the events kept; the message names the oldest event kept ' +
    'and the cursor to read on from once you have reconciled by paged reads.',
  412:
    '`If-Match` names a version the record no longer has: another write came first. Fetch ' +
    'it again (its `ETag`), look at what changed, and send the change again if it still holds.',
  413: 'The body is larger than 1 MiB (a CSV import: 50 MiB, or more than 200,000 rows).',
  415: 'The body is not `application/json` (`text/csv` for a CSV import).',
  422: 'The `Idempotency-Key` was already used in this workspace with a different request.',
  429:
    'The per-minute rate limit or the monthly quota is exceeded (the message names the limit ' +
    'and the plan), or too many failed authentications came from this address. Wait for ' +
    '`Retry-After` seconds.',
  503:
    'A service behind the gateway is unavailable or overloaded, or a read could not be ' +
    'answered in time. Wait `Retry-After` seconds and retry (a POST with the same ' +
    '`Idempotency-Key`, so it is applied once).',
  504:
    'A write whose service did not answer in time: it may or may not have been applied. ' +
    'Retry with backoff (a POST with the same `Idempotency-Key`, so it is applied once).',
};

/** Every route that takes a key can answer these, whatever it does. */
const KEYED_ROUTE_ERRORS = [401, 403, 429, 503];
/**
 * Only a write can end in a 504 (outcome unknown): a read that is not answered in time is a
 * 503, since asking again is harmless (register-client.ts).
 */
const WRITE_ERRORS = [504];
/** Responses that carry Retry-After (seconds). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/** Every route with a JSON body can refuse it before it reaches the handler. */
const BODY_ERRORS = [400, 413, 415];

const DESCRIPTION = `The public REST API of Custodian, an asset register: assets, the people they
are issued to, and the workspace members who log in.

**Authentication.** Every route except this document takes an API key of one workspace, as
\`Authorization: Bearer <key>\` or \`x-api-key: <key>\`. A \`read\` key calls GET routes; a
\`write\` key calls every route.

**Limits.** Each key has a per-minute rate limit and a monthly quota from its workspace's plan;
every response to a keyed request carries the \`X-RateLimit-*\` and \`X-Quota-*\` headers, and a
request over a limit gets \`429\` with \`Retry-After\`. While the gateway cannot reach its limit
store it keeps serving keys without applying the limits and without these headers; the requests
it serves then still count toward the monthly quota, and \`X-Quota-Used\` includes them once the
store is back (a key can then be over its quota).

**Errors.** Every error has the body \`{statusCode, error, message}\`; the message names the
field or limit at fault.

**Overload.** When the service cannot keep up it refuses work rather than queueing it: a
\`503\` with \`Retry-After\` (seconds); work refused for load changed nothing. A read is never
answered \`504\`; a write that was not answered in time is a \`504\` (it may have been applied).

**Retries.** \`POST /assets\`, \`/people\` and \`/members\` take an \`Idempotency-Key\` header
(a UUID per new request): a request retried with its key within 24 hours is applied once and
answered with the first answer, so a client that got a network error, \`503\` or \`504\` can
retry safely. \`PATCH\` is safe to retry as it is (the same change twice changes nothing more).

**Webhooks.** Events are delivered to your endpoints as signed POSTs; the \`webhooks\` section
lists every event key and its payload. See docs/receiving-webhooks.md for verifying them.`;

/**
 * The OpenAPI 3.1 document of the public API, generated from the code by @nestjs/swagger:
 * routes, parameters, security, request and response bodies from the controllers' decorators
 * and the contract classes of libs/contracts (their @ApiProperty fields). Then a few things
 * @nestjs/swagger cannot say are added from the document itself and our own constants: the
 * closed objects and examples of the components, the shared error responses and limit headers
 * of the keyed routes, and the `webhooks` section from the event catalog. Nothing is kept
 * beside the code by hand except prose.
 */
export function buildOpenApiDocument(app: INestApplication): OpenApiDocument {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Custodian API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    // Paths carry the /api/v1 prefix, so the server is the deployment's root.
    .addServer('/', 'This deployment')
    .addBearerAuth(
      // bearerFormat is only a hint, and Nest's default says JWT: the keys are `cus_` keys.
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'cus_ API key',
        description: 'The API key as a bearer token.',
      },
      BEARER_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The API key.' },
      API_KEY_SCHEME,
    );
  for (const [name, description] of Object.entries(TAG_DESCRIPTIONS)) {
    builder.addTag(name, description);
  }
  const extraModels = [ErrorBody, EventEnvelope, ...DELIVERABLE_EVENTS.flatMap(eventDataModels)];
  const config = builder.build();
  config.info.license = { name: 'Proprietary' };
  // The console's routes have a document of their own (console-openapi-document.ts).
  const generated = SwaggerModule.createDocument(app, config, {
    extraModels,
    include: PUBLIC_API_MODULES,
  });
  return finish(generated as unknown as OpenApiDocument);
}

function finish(document: OpenApiDocument): OpenApiDocument {
  const components = document.components as Record<string, unknown> & {
    schemas: Record<string, Schema>;
  };
  completeSchemas(components.schemas);
  const webhooks = webhooksOf(components.schemas);
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
  const { openapi, info, servers, tags, paths } = document;
  return { openapi, info, servers, tags, security: [], paths, webhooks, components };
}

/**
 * What @ApiSchema cannot say of a contract class: that it is closed (the pipes refuse unknown
 * fields) and its examples. A nested class with a description comes as `allOf: [$ref]`;
 * OpenAPI 3.1 takes the `$ref` beside the description, as Redocly prefers.
 */
export function completeSchemas(schemas: Record<string, Schema>): void {
  const examples = componentExamples();
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema.type === 'object' && !('additionalProperties' in schema)) {
      schema.additionalProperties = false;
    }
    const own = examples.get(name);
    if (own) schema.examples = own;
    for (const property of Object.values((schema.properties ?? {}) as Record<string, Schema>)) {
      const { allOf, ...rest } = property;
      if (Array.isArray(allOf) && allOf.length === 1) {
        Object.assign(property, allOf[0], rest);
        delete property.allOf;
      }
    }
  }
}

function completeOperation(path: string, method: string, operation: Operation): void {
  const access = operation[SCOPE_EXTENSION] as AccessPolicy | undefined;
  const routeErrors = (operation[ROUTE_ERRORS] as number[] | undefined) ?? [];
  delete operation[SCOPE_EXTENSION];
  delete operation[ROUTE_ERRORS];
  const statuses = new Set(routeErrors);
  if (access) KEYED_ROUTE_ERRORS.forEach((status) => statuses.add(status));
  if (access && method !== 'get') WRITE_ERRORS.forEach((status) => statuses.add(status));
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
 * Keyed responses carry the limit headers (429 and 503 also Retry-After). The plan-gate 403
 * and a deployment whose Redis is down send none, so they are documented but not required.
 */
function limitHeaderRefs(): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  );
}

/**
 * An error of a route without a key: no quota headers; the per-address guard's 429 carries
 * its window and Retry-After, a 503 Retry-After.
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
  if (status === 503) response.headers = { 'Retry-After': retryAfterRef() };
  return response;
}

const retryAfterRef = () => ({ $ref: '#/components/headers/Retry-After' });

const errorContent = () => ({
  'application/json': { schema: { $ref: getSchemaPath(ErrorBody) } },
});

const errorResponseName = (status: number) => reasonPhrase(status).replace(/[^A-Za-z]/g, '');

/** The error answers of keyed routes, named once and referenced by every operation. */
function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(COMMON_ERRORS).map(([code, description]) => {
      const status = Number(code);
      const headers = limitHeaderRefs();
      if (RETRY_AFTER_STATUSES.has(status)) headers['Retry-After'] = retryAfterRef();
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

function header(description: string, kind: 'integer' | 'quota'): Schema {
  return {
    description,
    schema:
      kind === 'integer'
        ? { type: 'string', pattern: '^\\d+$' }
        : { type: 'string', pattern: '^(\\d+|unlimited)$' },
  };
}
