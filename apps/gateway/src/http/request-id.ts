import {
  REQUEST_ID_HEADER,
  newRequestId,
  redactUrl,
  runWithRequestId,
  tracer,
  tracingOn,
  wellFormedRequestId,
  withRequestId,
} from '@custodian/observability';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { routeLabel } from './request-metrics';

/**
 * Fastify's genReqId: the client's X-Request-Id when it is well-formed (so a client can follow
 * its own id through our logs), else a new one. The id is also left on the raw request, where
 * the request logger (pino-http) takes it as its own instead of numbering requests itself.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const id = wellFormedRequestId(raw.headers[REQUEST_ID_HEADER]) ?? newRequestId();
  (raw as IncomingMessage & { id?: string }).id = id;
  return id;
}

/** A request's trace scope: its server span, and the context that makes it the parent. */
const scopes = new WeakMap<FastifyRequest, { span: Span; traced: Context }>();

/**
 * Every response names its request in X-Request-Id, errors and 404s included. What the request
 * does runs in its request context and under its server span (a child of the client's
 * `traceparent`, if it sent one), so RPC messages and outbox rows carry both on. With tracing
 * off the span is OpenTelemetry's no-op one.
 */
export function registerRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (!tracingOn()) return runWithRequestId(request.id, done);
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = routeLabel(request);
    const span = tracer().startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'http.route': route,
          // A calendar feed's path is its token (redactUrl keeps the first segment only).
          'url.path': redactUrl(request.url.split('?')[0] ?? ''),
          'custodian.request_id': request.id,
        },
      },
      parent,
    );
    const traced = withRequestId(trace.setSpan(parent, span), request.id);
    scopes.set(request, { span, traced });
    context.with(traced, done);
  });
  // A body is read in callbacks that began outside the onRequest hook's scope: the handler
  // enters it again.
  fastify.addHook('preHandler', (request, _reply, done) => {
    const scope = scopes.get(request);
    if (!scope) return runWithRequestId(request.id, done);
    context.with(scope.traced, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const scope = scopes.get(request);
    if (scope) {
      scope.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) scope.span.setStatus({ code: SpanStatusCode.ERROR });
      scope.span.end();
      scopes.delete(request);
    }
    done();
  });
}
