import { DomainError } from '@custodian/contracts';
import { createHash } from 'node:crypto';
import { canonicalJson, idempotentRequest, type IdempotencyOwner } from './idempotency-key';

const KEY_1: IdempotencyOwner = { workspaceId: 'wsp_1', sender: 'key:key_1' };

describe('idempotentRequest: what an Idempotency-Key makes of a request', () => {
  const body = { name: 'Laptop', custom_fields: { b: 1, a: [2, { d: 3, c: 4 }] } };

  it('is nothing without the header', () => {
    expect(idempotentRequest(KEY_1, undefined, 'POST', '/api/v1/assets', body)).toBeUndefined();
  });

  it('gives one id per sender and key, whatever the body', () => {
    const one = idempotentRequest(KEY_1, 'k-1', 'POST', '/api/v1/assets', body);
    const sameKeyOtherBody = idempotentRequest(KEY_1, 'k-1', 'POST', '/api/v1/assets', {});
    const otherWorkspace = idempotentRequest(
      { workspaceId: 'wsp_2', sender: 'key:key_1' },
      'k-1',
      'POST',
      '/api/v1/assets',
      body,
    );
    expect(one?.id).toMatch(/^idem_[0-9a-f]{64}$/);
    expect(sameKeyOtherBody?.id).toBe(one?.id);
    expect(otherWorkspace?.id).not.toBe(one?.id);
  });

  it('scopes the key to the API key or member that sent it, not the whole workspace', () => {
    const ids = (['key:key_1', 'key:key_2', 'member:mbr_1', 'member:mbr_2'] as const).map(
      (sender) =>
        idempotentRequest({ workspaceId: 'wsp_1', sender }, 'k-1', 'POST', '/api/v1/assets', body)
          ?.id,
    );
    expect(new Set(ids).size).toBe(4);
  });

  it("names, for an API key, the id the version before derived (the workspace's), for its retries", () => {
    const former = `idem_${createHash('sha256').update('wsp_1\nk-1').digest('hex')}`;
    const one = idempotentRequest(KEY_1, 'k-1', 'POST', '/api/v1/assets', body);
    expect(one?.formerId).toBe(former);
    expect(one?.id).not.toBe(former);
    // The console never sent keys before: nothing to find under a former id.
    const member = idempotentRequest(
      { workspaceId: 'wsp_1', sender: 'member:mbr_1' },
      'k-1',
      'POST',
      '/console/api/assets',
      body,
    );
    expect(member?.formerId).toBeUndefined();
  });

  it('fingerprints method, path and body, not the order of the body keys', () => {
    const fingerprint = (method: string, path: string, value: unknown) =>
      idempotentRequest(KEY_1, 'k', method, path, value)?.fingerprint;
    const reordered = { custom_fields: { a: [2, { c: 4, d: 3 }], b: 1 }, name: 'Laptop' };
    expect(fingerprint('POST', '/api/v1/assets', reordered)).toBe(
      fingerprint('post', '/api/v1/assets', body),
    );
    expect(fingerprint('POST', '/api/v1/people', body)).not.toBe(
      fingerprint('POST', '/api/v1/assets', body),
    );
    // Array order is meaningful.
    const swapped = { ...body, custom_fields: { b: 1, a: [{ d: 3, c: 4 }, 2] } };
    expect(fingerprint('POST', '/api/v1/assets', swapped)).not.toBe(
      fingerprint('POST', '/api/v1/assets', body),
    );
  });

  it.each(['', ' ', 'x'.repeat(256), 'tab\there', 'ünïcode'])(
    'refuses the key %j with a 400 that names the header',
    (key) => {
      let thrown: unknown;
      try {
        idempotentRequest(KEY_1, key, 'POST', '/api/v1/assets', body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect((thrown as DomainError).code).toBe('invalid_input');
      expect((thrown as DomainError).message).toMatch(/^Idempotency-Key must be/);
    },
  );

  it('takes a UUID and 255 visible characters', () => {
    expect(
      idempotentRequest(KEY_1, '3f1c2a52-8f5e-4a53-9d7b-2f0e7c1d9a10', 'POST', '/x', {}),
    ).toBeDefined();
    expect(idempotentRequest(KEY_1, '~'.repeat(255), 'POST', '/x', {})).toBeDefined();
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined ones, as JSON.stringify does', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: null } })).toBe('{"a":{"c":null},"b":1}');
    expect(canonicalJson(['x', 1, true])).toBe('["x",1,true]');
  });
});
