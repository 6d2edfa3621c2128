import { classify, errorKind } from './sender';

describe('delivery classification (spec 3, webhook delivery)', () => {
  it('delivers on any 2xx', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(classify({ statusCode: status, error: null })).toBe('delivered');
    }
  });

  it('retries network errors, timeouts, 408, 429 and every 5xx', () => {
    expect(classify({ statusCode: null, error: 'timeout' })).toBe('retry');
    expect(classify({ statusCode: null, error: 'connection_refused' })).toBe('retry');
    for (const status of [408, 429, 500, 502, 503, 504, 599]) {
      expect(classify({ statusCode: status, error: null })).toBe('retry');
    }
  });

  it('fails at once on other 4xx and on redirects (not followed)', () => {
    for (const status of [400, 401, 403, 404, 410, 422, 301, 302, 307]) {
      expect(classify({ statusCode: status, error: null })).toBe('failed');
    }
  });

  it('names the error kind of a request without a status', () => {
    expect(errorKind(new Error('aborted'), true)).toBe('timeout');
    expect(errorKind(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false)).toBe(
      'connection_refused',
    );
    const dns = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    expect(errorKind(dns, false)).toBe('dns');
    expect(
      errorKind(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), false),
    ).toBe('timeout');
    expect(errorKind(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false)).toBe('network');
  });
});
