import { DomainError } from '@custodian/contracts';
import type { FastifyInstance } from 'fastify';
import { parse as parseJson } from 'secure-json-parse';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The routes whose body is a CSV file: POST /api/v1/imports and the console's. */
const CSV_ROUTES = /^\/(api\/v1|console\/api)\/imports\/?$/;

/**
 * The gateway's only body parser: JSON, at most 1 MiB, with `__proto__` and `constructor`
 * keys refused. Errors name what is wrong instead of Fastify's generic text, and any other
 * content type is a 415 from Fastify.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.-]+\+json$/i]) {
    fastify.addContentTypeParser(type, { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, parse);
  }
  // A CSV import's file: passed on as the request's stream (csv-upload.ts reads it, bounded
  // by IMPORT_MAX_BYTES), and only to the routes that take one.
  fastify.addContentTypeParser(
    'text/csv',
    (
      request: { url: string; method: string },
      payload: unknown,
      done: (error: Error | null, value?: unknown) => void,
    ) => {
      const path = request.url.split('?')[0] ?? '';
      if (request.method === 'POST' && CSV_ROUTES.test(path)) done(null, payload);
      else done(new DomainError('unsupported_media_type', 'Content-Type must be application/json'));
    },
  );
  // An HTML form with no fields (the invitation page's Accept button) posts an empty
  // form-encoded body: accepted as no body; anything in it is still a 415.
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (
      _request: unknown,
      body: string | Buffer,
      done: (error: Error | null, value?: unknown) => void,
    ) => {
      if (body.length === 0) done(null, undefined);
      else done(new DomainError('unsupported_media_type', 'Content-Type must be application/json'));
    },
  );
}

function parse(
  _request: unknown,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') {
    done(null, undefined);
    return;
  }
  if (nestingOf(text) > MAX_DEPTH) {
    done(new DomainError('invalid_input', `body must not nest deeper than ${MAX_DEPTH} levels`));
    return;
  }
  try {
    done(null, parseJson(text, null, { protoAction: 'error', constructorAction: 'error' }));
  } catch (error) {
    const message = (error as Error).message;
    done(
      new DomainError(
        'invalid_input',
        /prototype/i.test(message)
          ? 'body must not contain the keys __proto__ or constructor'
          : `body is not valid JSON: ${message}`,
      ),
      undefined,
    );
  }
}

/** No API body needs more; deeper ones would overflow recursive serialisers downstream. */
const MAX_DEPTH = 32;

/**
 * The deepest nesting of objects and arrays in JSON text, by one pass over the characters
 * (brackets inside strings do not count), before anything recursive touches it.
 */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      deepest = Math.max(deepest, ++depth);
      if (deepest > MAX_DEPTH) return deepest;
    } else if (char === '}' || char === ']') {
      depth--;
    }
  }
  return deepest;
}
