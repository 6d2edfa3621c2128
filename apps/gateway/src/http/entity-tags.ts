import { DomainError, RawJson } from '@custodian/contracts';
import { etagOf, parseIfMatch } from '@custodian/messaging';
import {
  Injectable,
  applyDecorators,
  createParamDecorator,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';

/**
 * Every record the gateway answers carries its strong entity tag (`ETag`, etagOf: a hash
 * of the representation, the value the register checks If-Match against). A GET whose
 * If-None-Match names it is answered 304 with no body: the client's copy is current. Lists'
 * bare arrays (RawJson bytes, tagged by their own rows version) and empty answers pass as they
 * are. Registered for every route (APP_INTERCEPTOR): a record read anywhere, the public API or
 * the console, can be written back conditionally.
 */
@Injectable()
export class EntityTagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (!isRepresentation(result)) return result;
        const reply = http.getResponse<FastifyReply>();
        const etag = etagOf(result);
        void reply.header('etag', etag);
        const method = request.method;
        if ((method === 'GET' || method === 'HEAD') && reply.statusCode === 200) {
          const ifNoneMatch = request.headers['if-none-match'];
          if (typeof ifNoneMatch === 'string' && noneMatchHolds(ifNoneMatch, etag)) {
            void reply.status(304);
            return undefined;
          }
        }
        return result;
      }),
    );
  }
}

/**
 * A record (or the answer of a write about one): an object, not an array, a page of a list
 * (`{data: [...]}`: hashing 200 rows on every list read costs more than the 304 saves), nor
 * bytes passed through.
 */
function isRepresentation(result: unknown): result is object {
  return (
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    !Array.isArray((result as { data?: unknown }).data) &&
    !(result instanceof RawJson) &&
    !Buffer.isBuffer(result)
  );
}

/** If-None-Match (RFC 9110 13.1.2): `*`, or a list whose weak comparison finds the tag. */
function noneMatchHolds(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(etag);
}

/**
 * The request's If-Match as a list of entity tags (`*` alone for any), or undefined without
 * one; a malformed header is a 400 naming it. The owning service checks it under the record's
 * row lock, so no write slips between the check and the change.
 */
export const IfMatch = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string[] | undefined => {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers['if-match'];
    if (header === undefined) return undefined;
    const tags = typeof header === 'string' ? parseIfMatch(header) : null;
    if (!tags) {
      throw new DomainError(
        'invalid_input',
        'If-Match must be * or entity tags in double quotes, as ETag gives them (at most 20)',
      );
    }
    return tags;
  },
);

/** The document's side of a record's GET: If-None-Match and its 304. */
export const ApiConditionalRead = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'The `ETag` of the copy you hold: 304 with no body while the record is still that.',
    }),
    ApiResponse({ status: 304, description: 'Not modified: your copy (its `ETag`) is current.' }),
  );

/** The document's side of a PATCH or DELETE that takes If-Match: the header and its 412. */
export const ApiConditionalWrite = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'The `ETag` of the version you read (or `*`): the change is made only if the record ' +
        'is still that version, else 412 and nothing is written. Without it the change is ' +
        'made whatever came before.',
    }),
  );
