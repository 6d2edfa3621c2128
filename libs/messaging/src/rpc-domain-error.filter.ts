import { DomainError, type RpcErrorPayload } from '@custodian/contracts';
import { isDatabaseUnavailable } from '@custodian/persistence';
import { Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';

/**
 * A microservice's one mapper from exceptions to what crosses the broker: domain errors keep
 * their code and message; anything else is logged with an id and reported as internal, so no
 * SQL or stack trace ever reaches a client.
 */
@Catch()
export class RpcDomainErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger: Logger;

  /** `service` names the app in logs and in the database-unavailable message. */
  constructor(private readonly service: string) {
    this.logger = new Logger(service);
  }

  catch(exception: unknown): Observable<never> {
    if (exception instanceof DomainError) {
      const payload: RpcErrorPayload = { code: exception.code, message: exception.message };
      return throwError(() => payload);
    }
    if (isQueryCancelled(exception)) {
      this.logger.warn(`query cancelled: ${(exception as Error).message}`);
      const payload: RpcErrorPayload = {
        code: 'timeout',
        message: `The ${this.service} service did not finish in time; try again shortly`,
      };
      return throwError(() => payload);
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${(exception as Error).message}`);
      const payload: RpcErrorPayload = {
        code: 'unavailable',
        message: `The ${this.service} database is unavailable; try again shortly`,
      };
      return throwError(() => payload);
    }
    const errorId = randomUUID();
    this.logger.error({ err: exception, errorId }, 'unhandled error');
    const payload: RpcErrorPayload = { code: 'internal', message: `Internal error ${errorId}` };
    return throwError(() => payload);
  }
}

/**
 * Postgres cancelled a statement for statement_timeout (57014) or gave up a lock wait for
 * lock_timeout (55P03): the caller's time ran out, not a bug (504, not 500).
 */
function isQueryCancelled(exception: unknown): boolean {
  const error = exception as { code?: string; driverError?: { code?: string } } | null;
  const code = error?.driverError?.code ?? error?.code;
  return code === '57014' || code === '55P03';
}
