import type { FastifyRequest } from 'fastify';

/**
 * The path a request is routed by, for the hooks that decide by path before Nest runs (the
 * API's admission, the console's CSRF check). The router percent-decodes the path before it
 * matches (`/%61pi/v1/assets` is `/api/v1/assets`), so a check of the raw URL could be walked
 * around by encoding a letter. This is the pattern of the route the router matched, or, when
 * none did (a 404), the decoded path; never the raw URL.
 */
export function routedPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  const path = request.url.split('?')[0] ?? request.url;
  try {
    return decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: the app answers 400 for it before any route (bootstrap.ts).
    return path;
  }
}
