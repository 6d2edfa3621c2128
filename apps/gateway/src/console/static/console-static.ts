import { Logger } from '@nestjs/common';
import { errorBody } from '@custodian/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GatewayConfig } from '../../config/gateway-config';
import { sendError } from '../../errors/api-exception.filter';

/** What the console's pages may load and do: only this origin, nothing framed, no inline script. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/**
 * The console's built files at /console. Vite names every asset by its content hash, so those
 * are cached for a year; index.html is never cached, so a new build is picked up on the next
 * load. Every other /console path (outside /console/api) is a screen of the app: index.html.
 */
export async function registerConsoleStatic(
  fastify: FastifyInstance,
  config: GatewayConfig,
): Promise<void> {
  const root = path.resolve(config.CONSOLE_DIR);
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await fastify.register(fastifyStatic, {
      root,
      prefix: '/console/',
      // A route per file, made at start: the build does not change while the gateway runs, and
      // the catch-all below can then answer every other path with the app.
      wildcard: false,
      index: false,
      // The build writes .br and .gz siblings (apps/console/scripts/precompress.js).
      preCompressed: true,
      // Ours, set below per file; send's own would overwrite it after setHeaders.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        for (const [name, value] of Object.entries(PAGE_HEADERS)) response.header(name, value);
        response.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
        // The same URL answers in brotli, gzip or plain: a shared cache must key on the encoding.
        response.header('vary', 'accept-encoding');
      },
    });
  } else {
    new Logger('Console').warn(
      `no console build at ${root} (CONSOLE_DIR); run "npm run build" to serve the console`,
    );
  }
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    // An unknown route of the console's API is a 404 in the API's words, not the app's page.
    if (/^\/console\/api(\/|\?|$)/.test(request.url)) {
      sendError(reply, errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}`));
      return;
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_BUILT);
    }
    return reply
      .headers({ ...PAGE_HEADERS, 'cache-control': 'no-cache' })
      .sendFile('index.html', root);
  };
  fastify.get('/console', page);
  fastify.get('/console/*', page);
}

const NOT_BUILT =
  '<!doctype html><title>Custodian</title><p>The console is not built on this server. Run ' +
  '<code>npm run build</code>, then restart the gateway.</p>';
