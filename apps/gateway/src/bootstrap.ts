import { startRpcServers } from '@custodian/messaging';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import fastifyCookie from '@fastify/cookie';
import { AccessHook } from './access/access-hook';
import { registerConsoleCsrf } from './console/session/console-csrf';
import { registerConsoleStatic } from './console/static/console-static';
import { GatewayAppModule } from './app.module';
import { errorBody } from '@custodian/contracts';
import { ApiExceptionFilter, sendError } from './errors/api-exception.filter';
import { trustedProxies, type GatewayConfig } from './config/gateway-config';
import { BODY_LIMIT_BYTES, registerJsonBodyParser } from './http/json-body-parser';
import { registerRequestContext, requestIdOf } from './http/request-id';
import { REQUEST_ID_HEADER, startAppMetrics } from '@custodian/observability';
import { DataSource } from 'typeorm';
import { OpsServer } from './health/ops-server';
import { registerRequestMetrics } from './http/request-metrics';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { OpenApiDocumentStore } from './openapi/openapi.controller';

export const API_PREFIX = 'api/v1';

/** Builds and starts the gateway; main.ts and the test harness both call this. */
export async function startGateway(config: GatewayConfig): Promise<NestFastifyApplication> {
  const adapter = createGatewayAdapter(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayAppModule.forConfig(config),
    adapter,
    { bufferLogs: true, bodyParser: false },
  );
  return listenGateway(app, config);
}

/** Fastify as the gateway needs it: 1 MiB JSON bodies, our error body for routing errors. */
export function createGatewayAdapter(config: GatewayConfig): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: trustedProxies(config),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Errors Fastify meets while routing (a path with broken percent-encoding) get our body.
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      void reply.header(REQUEST_ID_HEADER, request.id);
      sendError(
        reply,
        errorBody(400, `path ${request.url.split('?')[0]} is not valid percent-encoding`),
      );
    },
  });
  registerRequestContext(adapter.getInstance());
  registerRequestMetrics(adapter.getInstance());
  registerJsonBodyParser(adapter.getInstance());
  return adapter;
}

/**
 * Fastify's first hook runs AccessHook. It is added before Nest registers any route (so it
 * applies to all of them and to the 404 handler) and bound to the DI instance once the app
 * exists.
 */
function installAccessHook(app: NestFastifyApplication): void {
  const hook = app.get(AccessHook);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply) => hook.onRequest(request, reply));
}

/** Cookies, CSRF protection and the built app for the console at /console. */
async function registerConsoleHttp(
  app: NestFastifyApplication,
  config: GatewayConfig,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(fastifyCookie);
  await registerConsoleCsrf(fastify, config);
  await registerConsoleStatic(fastify, config);
}

/** /api/v1 for the API; health and the docs page live at the root. */
export function setGlobalPrefix(app: NestFastifyApplication): void {
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      // The console's API lives beside the public API, not under it (console/console.module.ts).
      { path: 'console/api/*path', method: RequestMethod.ALL },
      { path: 'health', method: RequestMethod.GET },
      { path: 'docs', method: RequestMethod.GET },
      { path: 'docs/:file', method: RequestMethod.GET },
      // A member's calendar feed, which calendar apps fetch by its secret URL (calendar/).
      { path: 'calendar/:file', method: RequestMethod.GET },
    ],
  });
}

/** Everything after the module is built: errors, prefix, admin queue, shutdown, listen. */
export async function listenGateway(
  app: NestFastifyApplication,
  config: GatewayConfig,
): Promise<NestFastifyApplication> {
  app.useLogger(app.get(Logger));
  startAppMetrics('gateway', app.get(DataSource));
  installAccessHook(app);
  await registerConsoleHttp(app, config);
  // Global (not APP_FILTER) so that errors Fastify raises before a route runs, such as body
  // size and parsing, reach the same mapper through Nest's router error handler.
  app.useGlobalFilters(new ApiExceptionFilter());
  setGlobalPrefix(app);
  // Built from this app's own routes before it listens, so /api/v1/openapi.json always
  // describes the code that serves it.
  app.get(OpenApiDocumentStore).set(buildOpenApiDocument(app));
  app.enableShutdownHooks();
  await startRpcServers(app);
  await app.listen(config.PORT, config.HOST);
  await app.get(OpsServer).listen();
  return app;
}
