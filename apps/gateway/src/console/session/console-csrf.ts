import fastifyCsrf from '@fastify/csrf-protection';
import { DomainError } from '@custodian/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway-config';
import { routedPath } from '../../access/routed-path';
import { CONSOLE_PATH, secureCookies } from './session-cookie';

const CONSOLE_API = /^\/console\/api(\/|\?|$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection for every console request that changes state, sign-in included (a forged
 * sign-in would put a victim in the attacker's account). @fastify/csrf-protection keeps its
 * secret in its own HttpOnly cookie; the console reads a token from GET /console/api/session
 * and sends it back as `x-csrf-token`, which a cross-site form or image cannot do.
 */
export async function registerConsoleCsrf(
  fastify: FastifyInstance,
  config: GatewayConfig,
): Promise<void> {
  await fastify.register(fastifyCsrf, {
    cookieKey: 'custodian_csrf',
    cookieOpts: {
      path: CONSOLE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies(config),
    },
    getToken: (request: FastifyRequest) => {
      const token = request.headers['x-csrf-token'];
      return typeof token === 'string' ? token : undefined;
    },
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    // By the routed path, not the raw URL: `/console/%61pi/...` reaches the same routes.
    if (!CONSOLE_API.test(routedPath(request)) || SAFE_METHODS.has(request.method)) {
      done();
      return;
    }
    // The plugin answers a bad token itself; the console wants the API's error body instead.
    const refusal = {
      send: () =>
        done(
          new DomainError(
            'forbidden',
            'The security token (x-csrf-token) is missing or out of date; reload the console and try again',
          ),
        ),
    } as unknown as FastifyReply;
    fastify.csrfProtection(request, refusal, () => done());
  });
}
