import { RawJson } from '@custodian/contracts';
import {
  Injectable,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';

/**
 * Writes a RawJson the register answered (the unpaged lists) to the response as its bytes:
 * Fastify sends a Buffer as it is, where it would JSON.stringify an object, so the array is
 * neither parsed nor serialised again here. The headers set before (rate limit, quota, request
 * id) stay; only the content type is the one Fastify gives its own JSON. Anything else passes
 * through untouched.
 */
@Injectable()
export class RawJsonInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof RawJson)) return result;
        void context
          .switchToHttp()
          .getResponse<FastifyReply>()
          .type('application/json; charset=utf-8');
        return result.bytes;
      }),
    );
  }
}

/** On a route that may answer a RawJson (RegisterRpc's lists): see RawJsonInterceptor. */
export const SendsRawJson = (): MethodDecorator & ClassDecorator =>
  UseInterceptors(RawJsonInterceptor);
