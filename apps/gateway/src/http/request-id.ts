import {
  REQUEST_ID_HEADER,
  newRequestId,
  runWithRequestId,
  wellFormedRequestId,
} from '@custodian/observability';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

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

/**
 * Every response names its request in X-Request-Id, errors and 404s included, and what the
 * request does runs in its request context, so RPC messages and outbox rows carry the id.
 */
export function registerRequestIds(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    runWithRequestId(request.id, done);
  });
  // A body is read in callbacks that began outside the onRequest hook's scope: the handler
  // enters it again.
  fastify.addHook('preHandler', (request, _reply, done) => runWithRequestId(request.id, done));
}
