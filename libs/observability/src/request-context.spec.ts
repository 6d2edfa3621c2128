import {
  currentMessageContext,
  currentRequestId,
  messageContextFrom,
  requestLogFields,
  runInMessageContext,
  runWithRequestId,
  wellFormedRequestId,
} from './request-context';

describe('request context', () => {
  it('takes a client id of up to 128 safe characters, and nothing else', () => {
    for (const good of ['a', 'req-1', '0f8fad5b-d9cb-469f-a165-70867728950e', 'x'.repeat(128)]) {
      expect(wellFormedRequestId(good)).toBe(good);
    }
    for (const bad of ['', ' a', 'a b', '-a', 'a\nb', 'a;b', 'x'.repeat(129), 7, null, ['a']]) {
      expect(wellFormedRequestId(bad)).toBeUndefined();
    }
  });

  it('is the id of the request being served, through awaits, and none outside', async () => {
    expect(currentRequestId()).toBeUndefined();
    expect(requestLogFields()).toEqual({});
    await runWithRequestId('outer', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentRequestId()).toBe('outer');
      expect(currentMessageContext()).toEqual({ 'x-request-id': 'outer' });
      expect(requestLogFields()).toEqual({ requestId: 'outer' });
      // Work for no request, started from inside one, carries none.
      runWithRequestId(undefined, () => expect(currentRequestId()).toBeUndefined());
    });
    expect(currentMessageContext()).toBeUndefined();
  });

  it('reads a context from headers, keeping only a well-formed request id', () => {
    expect(messageContextFrom({ 'x-request-id': 'r1', other: 'x' })).toEqual({
      'x-request-id': 'r1',
    });
    expect(messageContextFrom({ 'x-request-id': 'bad id' })).toBeUndefined();
    expect(messageContextFrom(undefined)).toBeUndefined();
    expect(messageContextFrom('x-request-id')).toBeUndefined();
    expect(runInMessageContext({ 'x-request-id': 'r2' }, currentRequestId)).toBe('r2');
    expect(runInMessageContext(null, currentRequestId)).toBeUndefined();
  });
});
