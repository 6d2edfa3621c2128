import { ErrorBody, reasonPhrase } from '@custodian/contracts';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, getSchemaPath } from '@nestjs/swagger';
import { ConsoleModule } from '../console/console.module';
import {
  CONSOLE_COOKIE_SCHEME,
  PERMISSION_EXTENSION,
  WITHOUT_IDEMPOTENCY_KEY,
} from '../console/session/console-access';
import { ROUTE_ERRORS } from '../http/api-docs.decorators';
import { completeSchemas, type OpenApiDocument } from './openapi-document';
import type { Schema } from './webhooks-section';

const ERRORS: Record<number, string> = {
  400: 'A parameter or body field failed validation; the message names it.',
  401: 'Not signed in, or the session ended.',
  403:
    'The role of the signed-in member does not allow this, no workspace is picked, or the ' +
    '`x-csrf-token` header is missing or stale.',
  404: "No such record in the session's workspace.",
  409: 'The change conflicts with the current state.',
  412: 'The record changed since it was read (`If-Match`): read it again.',
  413: 'The body is larger than 1 MiB.',
  422: 'The Idempotency-Key was already used with a different request.',
  415: 'The body is not `application/json`.',
  429:
    'Too many attempts, or too many changes a minute (per session, per workspace, and per ' +
    'endpoint for Test pings or per delivery for resends); wait `Retry-After` seconds.',
  503: 'A service behind the console is unavailable; try again shortly.',
  504: 'A service behind the console did not answer in time; try again.',
};

/** The header every console write takes but those marked WithoutIdempotencyKey. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the write safe to retry: send a new UUID per change, and the same one when retrying ' +
    'it after a network error, 503 or 504. Within 24 hours a write with a key the signed-in ' +
    'member already used is not applied again, and the first answer is returned (an API key ' +
    'created before is named in a 409 instead: its key was in the first answer only). The ' +
    'same key with a different method, path or body is refused with 422.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * The console's own HTTP API (/console/api), documented apart from the public API: it is not
 * a contract with customers but with the console app, whose typed client
 * (libs/console-client) is generated from this document.
 */
export function buildConsoleOpenApiDocument(app: INestApplication): OpenApiDocument {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Custodian console API')
    .setDescription(
      'The HTTP API of the web console, served on the same origin. Members sign in with a ' +
        'session cookie; API keys open nothing here. Requests that change state carry the ' +
        '`x-csrf-token` header from `GET /console/api/session`.',
    )
    .setVersion('1.0')
    .addServer('/', 'This deployment')
    .addCookieAuth('custodian_session', { type: 'apiKey', in: 'cookie' }, CONSOLE_COOKIE_SCHEME)
    .build();
  config.info.license = { name: 'Proprietary' };
  // ConsoleModule only imports the console's modules (one per domain): their routes, in the
  // order it imports them.
  const document = SwaggerModule.createDocument(app, config, {
    include: [ConsoleModule],
    deepScanRoutes: true,
    extraModels: [ErrorBody],
  }) as unknown as OpenApiDocument;
  const components = document.components as { schemas: Record<string, Schema> };
  completeSchemas(components.schemas);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const statuses = new Set((operation[ROUTE_ERRORS] as number[] | undefined) ?? []);
      delete operation[ROUTE_ERRORS];
      const permission = operation[PERMISSION_EXTENSION] as string | undefined;
      delete operation[PERMISSION_EXTENSION];
      if (permission) {
        [401, 403, 503, 504].forEach((status) => statuses.add(status));
        // Every write of a signed-in member counts against the console's write limits.
        if (method !== 'get') statuses.add(429);
        const without = operation[WITHOUT_IDEMPOTENCY_KEY] as string | undefined;
        delete operation[WITHOUT_IDEMPOTENCY_KEY];
        if (method !== 'get' && without === undefined) {
          operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
          statuses.add(422);
        }
        operation.description = [operation.description, `Needs the \`${permission}\` permission.`]
          .filter(Boolean)
          .join('\n\n');
      }
      if (method !== 'get') [400, 403, 413, 415].forEach((status) => statuses.add(status));
      if (path.includes('{')) statuses.add(400);
      for (const status of [...statuses].sort()) {
        operation.responses[String(status)] = {
          description: ERRORS[status] ?? reasonPhrase(status),
          content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBody) } } },
        };
      }
    }
  }
  const { openapi, info, servers, tags, paths } = document;
  // Sign-in routes need no session: the root says so; the others name the cookie themselves.
  return { openapi, info, servers, tags, security: [], paths, components: document.components };
}
