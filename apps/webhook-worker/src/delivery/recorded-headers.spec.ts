import {
  HIDDEN,
  MAX_RESPONSE_HEADERS,
  isSensitive,
  recordedResponseHeaders,
} from './recorded-headers';

describe('response headers as the delivery log keeps them', () => {
  it('hides credentials, cookies and anything named like a token, secret or key', () => {
    for (const name of [
      'Set-Cookie',
      'cookie',
      'Authorization',
      'proxy-authorization',
      'WWW-Authenticate',
      'x-api-key',
      'X-Auth-Token',
      'x-client-secret',
      'api-key',
      'x-session-id',
    ]) {
      expect([name, isSensitive(name)]).toEqual([name, true]);
    }
    for (const name of ['content-type', 'content-length', 'date', 'x-request-id', 'server']) {
      expect([name, isSensitive(name)]).toEqual([name, false]);
    }
  });

  it('keeps other headers as they came, lower-cased, repeated values joined', () => {
    expect(
      recordedResponseHeaders({
        'Content-Type': 'text/plain',
        'set-cookie': ['a=1', 'b=2'],
        'x-request-id': 'req_1',
        via: ['1.1 a', '1.1 b'],
        'x-missing': undefined,
      }),
    ).toEqual({
      'content-type': 'text/plain',
      'set-cookie': HIDDEN,
      'x-request-id': 'req_1',
      via: '1.1 a, 1.1 b',
    });
  });

  it('keeps at most MAX_RESPONSE_HEADERS headers and 1,000 characters of a value', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_RESPONSE_HEADERS + 50 }, (_, i) => [`x-h${i}`, 'v'.repeat(2000)]),
    );
    const recorded = recordedResponseHeaders(many);
    expect(Object.keys(recorded)).toHaveLength(MAX_RESPONSE_HEADERS);
    expect(recorded['x-h0']).toHaveLength(1000);
  });
});
