import { httpRequestDuration } from '@custodian/observability';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Every answered request in `custodian_http_request_duration_seconds`, labelled by the route's
 * template (`/api/v1/assets/:id`), never the path itself: ids in a label would make a series
 * per asset.
 */
export function registerRequestMetrics(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    httpRequestDuration.observe(
      { method: request.method, route: routeLabel(request), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** The route template; the console's files (a route each) as one; `unmatched` for a 404. */
export function routeLabel(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return 'unmatched';
  if (url.startsWith('/console') && !url.startsWith('/console/api/')) return '/console/*';
  return url;
}
