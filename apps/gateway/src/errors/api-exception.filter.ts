import {
  DomainError,
  errorBody,
  errorBodyForCode,
  statusForCode,
  type ErrorBody,
  type RpcErrorPayload,
} from '@custodian/contracts';
import { isDatabaseUnavailable } from '@custodian/persistence';
import {
  Catch,
  HttpException,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';

/** Fastify's own errors (raised before a route runs, by status), in our words. */
const FASTIFY_MESSAGES: Record<number, string> = {
  413: 'request body must not exceed 1 MiB',
  415: 'Content-Type must be application/json',
};

/**
 * The gateway's one mapper from exceptions to responses. Every error leaves as
 * {statusCode, error, message}; anything unexpected is logged with an id and reported as a
 * 500 naming that id, never with internals.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'rpc') {
      const body = this.toBody(exception, null);
      const payload: RpcErrorPayload = {
        code: exception instanceof DomainError ? exception.code : 'internal',
        message: body.message,
      };
      return throwError(() => payload);
    }
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(reply, this.toBody(exception, request));
  }

  toBody(exception: unknown, request: FastifyRequest | null): ErrorBody {
    if (exception instanceof DomainError) {
      return errorBodyForCode(exception.code, exception.message);
    }
    if (exception instanceof NotFoundException && request) {
      return errorBody(404, `No route ${request.method} ${request.url.split('?')[0]}`);
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (FASTIFY_MESSAGES[status]) return errorBody(status, FASTIFY_MESSAGES[status]);
      const response = exception.getResponse();
      return errorBody(status, httpExceptionMessage(response, exception.message));
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${(exception as Error).message}`);
      return errorBodyForCode(
        'unavailable',
        'The gateway database is unavailable; try again shortly',
      );
    }
    const errorId = randomUUID();
    this.logger.error({ err: exception, errorId }, 'unhandled error');
    return errorBody(statusForCode('internal'), `Internal error ${errorId}`);
  }
}

function httpExceptionMessage(response: string | object, fallback: string): string {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return typeof message === 'string' ? message : fallback;
}

/**
 * Seconds a client is asked to wait after a 503. Short: the causes (a register at its limit of
 * searches, a broker reconnecting) pass in about that, and clients that honour it spread out.
 */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_S = 1;

export function sendError(reply: FastifyReply, body: ErrorBody): void {
  if (body.statusCode === 503) {
    void reply.header('retry-after', String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
  }
  void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
}
