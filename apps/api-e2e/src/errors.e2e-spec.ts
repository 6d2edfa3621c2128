import type { AssetSummary, ErrorBody, Page } from '@custodian/contracts';
import type { ApiResponse } from '@custodian/testing';
import { TestStack, type Tenant } from './support/stack';

const ONE_MIB = 1024 * 1024;

/** The error body of section 2.5, exactly, as JSON. */
function expectErrorBody(response: ApiResponse<unknown>, status: number, error: string): string {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
  const body = JSON.parse(response.text) as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(status);
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body.message;
}

describe('error responses (e2e)', () => {
  const stack = new TestStack();
  let tenant: Tenant;

  async function total(): Promise<number> {
    const response = await tenant.get<Page<AssetSummary>>('/assets?page=1&pageSize=1');
    expect(response.status).toBe(200);
    return response.body.total;
  }

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(() => stack.stop());

  it.each([
    ['truncated', '{"name": "Desk"'],
    ['trailing comma', '{"name": "Desk",}'],
    ['single quotes', "{'name': 'Desk'}"],
    ['bare word', 'desk'],
  ])('answers malformed JSON (%s) with 400 in the error body', async (_, body) => {
    const before = await total();
    const response = await tenant.post('/assets', body);
    const message = expectErrorBody(response, 400, 'Bad Request');
    expect(message).toMatch(/JSON/);
    expect(await total()).toBe(before);
  });

  it('answers malformed JSON on PATCH with 400 too', async () => {
    const response = await tenant.patch('/assets/ast_whatever', '{"name":');
    expect(expectErrorBody(response, 400, 'Bad Request')).toMatch(/JSON/);
  });

  it.each([
    ['GET', '/nope'],
    ['GET', '/assets/a/b'],
    ['DELETE', '/assets/ast_x'],
    ['PUT', '/assets'],
  ])('answers an unknown route (%s %s) with 404 in the error body', async (method, path) => {
    const response = await tenant.request(path, { method });
    expect(expectErrorBody(response, 404, 'Not Found')).toContain(path);
  });

  it('answers an unknown route with 404 without a key too, and outside /api/v1', async () => {
    expectErrorBody(await stack.request('/nope'), 404, 'Not Found');
    const outside = await fetch(stack.baseUrl.replace('/api/v1', '/nothing-here'));
    const text = await outside.text();
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(JSON.parse(text) as object).sort()).toEqual([
      'error',
      'message',
      'statusCode',
    ]);
  });

  it('answers a body over 1 MiB with 413 in the error body, writing nothing', async () => {
    const before = await total();
    const body = JSON.stringify({ name: 'Big', sku: 'x'.repeat(ONE_MIB) });
    expect(Buffer.byteLength(body)).toBeGreaterThan(ONE_MIB);
    const response = await tenant.post('/assets', body);
    expect(expectErrorBody(response, 413, 'Payload Too Large')).toMatch(/1 MiB/);
    expect(await total()).toBe(before);
  });

  it('accepts a body just under 1 MiB through the parser', async () => {
    // Parsed, then refused by validation (sku is at most 200 characters): not a 413.
    const body = JSON.stringify({ name: 'Big', sku: 'x'.repeat(ONE_MIB - 100) });
    expect(Buffer.byteLength(body)).toBeLessThan(ONE_MIB);
    const response = await tenant.post('/assets', body);
    expect(expectErrorBody(response, 400, 'Bad Request')).toMatch(/\bsku\b/);
  });

  it.each([
    ['__proto__', '{"name":"Desk","__proto__":{"isAdmin":true}}'],
    ['nested __proto__', '{"name":"Desk","custom_fields":{"__proto__":{"x":1}}}'],
    ['constructor.prototype', '{"name":"Desk","constructor":{"prototype":{}}}'],
    ['bare constructor.prototype', '{"constructor":{"prototype":{}}}'],
  ])('refuses a body carrying %s with 400, writing nothing', async (_, body) => {
    const before = await total();
    const response = await tenant.post('/assets', body);
    expect(expectErrorBody(response, 400, 'Bad Request')).toMatch(/__proto__|constructor/);
    expect(await total()).toBe(before);
  });

  it('answers a text/plain body with 415 in the error body, writing nothing', async () => {
    const before = await total();
    const response = await tenant.request('/assets', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"name":"Desk"}',
    });
    expect(expectErrorBody(response, 415, 'Unsupported Media Type')).toMatch(/application\/json/);
    expect(await total()).toBe(before);
  });

  it('answers a form-encoded body with 415 as well', async () => {
    const response = await tenant.request('/assets', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Desk',
    });
    expectErrorBody(response, 415, 'Unsupported Media Type');
  });

  it('uses the same error body for auth, scope, validation and lookup errors', async () => {
    expectErrorBody(await stack.request('/assets'), 401, 'Unauthorized');
    expectErrorBody(
      await stack.request('/assets', { headers: { 'x-api-key': 'cus_short' } }),
      401,
      'Unauthorized',
    );
    const reader = await stack.tenant('pro', 'read');
    expectErrorBody(await reader.post('/assets', { name: 'x' }), 403, 'Forbidden');
    expectErrorBody(await tenant.post('/assets', { colour: 'red' }), 400, 'Bad Request');
    expectErrorBody(await tenant.get('/assets?bogus=1'), 400, 'Bad Request');
    expectErrorBody(await tenant.get('/assets/ast_missing'), 404, 'Not Found');
  });

  it('refuses NUL characters in a body, a search and an id without a 500', async () => {
    const before = await total();
    const body = await tenant.post('/assets', { name: 'a\u0000b' });
    expect(expectErrorBody(body, 400, 'Bad Request')).toBe('name must not contain NUL characters');
    const search = await tenant.get('/assets?page=1&search=%00');
    expect(expectErrorBody(search, 400, 'Bad Request')).toBe(
      'search must not contain NUL characters',
    );
    expectErrorBody(await tenant.get('/assets/ast_a%00b'), 404, 'Not Found');
    expect(await total()).toBe(before);
  });

  it('answers a path with broken percent-encoding with the error body', async () => {
    const response = await tenant.get('/assets/%E0%A4%A');
    expect(expectErrorBody(response, 400, 'Bad Request')).toMatch(/percent-encoding/);
  });

  it('refuses bodies nested deeper than 32 levels, however deep, with 400', async () => {
    for (const depth of [33, 150_000]) {
      const body = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const response = await tenant.request('/people', { method: 'POST', body });
      expect(expectErrorBody(response, 400, 'Bad Request')).toBe(
        'body must not nest deeper than 32 levels',
      );
    }
  });

  it('refuses lone surrogates and constructor keys at any depth with 400, not 500', async () => {
    const surrogate = await tenant.request('/assets', {
      method: 'POST',
      body: '{"name":"a","custom_fields":{"note":"\\ud800"}}',
    });
    expect(expectErrorBody(surrogate, 400, 'Bad Request')).toBe(
      'custom_fields.note must be valid Unicode text',
    );
    const nested = await tenant.post('/assets', { name: 'a', custom_fields: { constructor: 'x' } });
    expect(expectErrorBody(nested, 400, 'Bad Request')).toMatch(/constructor/);
  });
});
