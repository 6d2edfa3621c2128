import { DomainError, type RpcErrorPayload } from '@custodian/contracts';
import { Logger } from '@nestjs/common';
import { firstValueFrom } from 'rxjs';
import { RpcDomainErrorFilter } from './rpc-domain-error.filter';

/** What the filter sends over the broker for an exception. */
async function payloadOf(exception: unknown): Promise<RpcErrorPayload> {
  try {
    await firstValueFrom(new RpcDomainErrorFilter('register').catch(exception));
  } catch (payload) {
    return payload as RpcErrorPayload;
  }
  throw new Error('the filter did not fail');
}

describe('RpcDomainErrorFilter', () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('keeps a domain error as it is', async () => {
    await expect(payloadOf(new DomainError('conflict', 'taken'))).resolves.toEqual({
      code: 'conflict',
      message: 'taken',
    });
  });

  it.each([
    ['statement_timeout', '57014'],
    ['lock_timeout', '55P03'],
  ])(
    'answers a query Postgres cancelled for %s as a timeout, not an internal error',
    async (_, code) => {
      const cancelled = Object.assign(new Error('canceling statement'), { driverError: { code } });
      await expect(payloadOf(cancelled)).resolves.toEqual({
        code: 'timeout',
        message: 'The register service did not finish in time; try again shortly',
      });
    },
  );

  it('answers Postgres being away as unavailable, and anything else as internal with an id', async () => {
    const away = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(payloadOf(away)).resolves.toMatchObject({ code: 'unavailable' });
    const bug = await payloadOf(new TypeError('x is undefined'));
    expect(bug.code).toBe('internal');
    expect(bug.message).toMatch(/^Internal error [0-9a-f-]{36}$/);
  });
});
