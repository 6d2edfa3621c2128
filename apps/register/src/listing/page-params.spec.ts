import { DomainError } from '@custodian/contracts';
import { pageParams } from './page-params';

describe('pageParams', () => {
  it('takes the defaults, and whole numbers in range', () => {
    expect(pageParams({}, 50, 200)).toEqual({ page: 1, pageSize: 50 });
    expect(pageParams({ page: '3', pageSize: '200' }, 50, 200)).toEqual({ page: 3, pageSize: 200 });
  });

  it('refuses anything else, naming the parameter', () => {
    for (const [query, message] of [
      [{ page: '0' }, 'page must be a whole number from 1 to 1000000'],
      [{ page: '1.5' }, 'page must be a whole number from 1 to 1000000'],
      [{ pageSize: '201' }, 'pageSize must be a whole number from 1 to 200'],
      [{ pageSize: '-1' }, 'pageSize must be a whole number from 1 to 200'],
    ] as const) {
      expect(() => pageParams(query, 50, 200)).toThrow(new DomainError('invalid_input', message));
    }
  });
});
