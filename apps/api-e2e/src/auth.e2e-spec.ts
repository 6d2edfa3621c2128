import {
  GatewayAdminPatterns,
  type AssetDetail,
  type ErrorBody,
  type PingView,
} from '@custodian/contracts';
import { httpRequest } from '@custodian/testing';
import { crc32 } from 'node:zlib';
import { Tenant, TestStack } from './support/stack';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = /^cus_[0-9A-Za-z]{40}$/;

/** `cus_` + 34 base62 + a 6-character base62 CRC-32 of them (DECISIONS: API keys). */
function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function wellFormedKey(): string {
  let body = '';
  for (let i = 0; i < 34; i++) body += BASE62[Math.floor(Math.random() * 62)];
  return `cus_${body}${checksum(body)}`;
}

function flipLastChar(key: string): string {
  const last = key[key.length - 1];
  return key.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

function unauthorized(message: string): ErrorBody {
  return { statusCode: 401, error: 'Unauthorized', message };
}

describe('authentication, scopes and the plan gate (e2e)', () => {
  const stack = new TestStack();
  let writer: Tenant;
  let reader: Tenant;

  beforeAll(async () => {
    await stack.start();
    writer = await stack.tenant('pro', 'write');
    const readKey = await stack.createKey(writer.workspace.id, 'read');
    reader = new Tenant(stack, writer.workspace, readKey);
  }, 30_000);

  afterAll(() => stack.stop());

  it('issues keys of the documented format whose checksum verifies', () => {
    expect(writer.key.key).toMatch(KEY_SHAPE);
    expect(reader.key.key).toMatch(KEY_SHAPE);
    const raw = writer.key.key;
    expect(checksum(raw.slice(4, 38))).toBe(raw.slice(38));
  });

  it('accepts the key as Bearer and as x-api-key, with any header-name case', async () => {
    const key = writer.key.key;
    const variants: Array<Record<string, string>> = [
      { Authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { 'x-api-key': key },
      { 'X-API-KEY': key },
    ];
    for (const headers of variants) {
      const response = await stack.request<PingView>('/ping', { headers });
      expect({ headers, status: response.status }).toEqual({ headers, status: 200 });
      expect(response.body.key.id).toBe(writer.key.id);
    }
    const list = await stack.request('/assets', { headers: { 'X-Api-Key': key } });
    expect(list.status).toBe(200);
  });

  it.each(['/%61pi/v1/ping', '/api/%76%31/ping', '/%61%70%69/v1/ping'])(
    'admits a request whose path is percent-encoded (%s) as the plain path: key, limits, quota',
    async (path) => {
      const origin = new URL(stack.baseUrl).origin;
      const plain = await writer.get('/ping');
      const encoded = await httpRequest<{ key: { id: string } }>(`${origin}${path}`, {
        headers: { authorization: `Bearer ${writer.key.key}` },
      });
      expect(encoded.status).toBe(200);
      expect(encoded.body.key.id).toBe(writer.key.id);
      // Admission ran: the limit headers are there, and the request was counted.
      expect(encoded.headers.get('x-ratelimit-limit')).toBe(plain.headers.get('x-ratelimit-limit'));
      expect(Number(encoded.headers.get('x-ratelimit-remaining'))).toBeLessThan(
        Number(plain.headers.get('x-ratelimit-remaining')),
      );
      const missing = await httpRequest<ErrorBody>(`${origin}${path}`);
      expect(missing.status).toBe(401);
      expect(missing.body.message).toMatch(/missing/i);
    },
  );

  it('answers 401 when the key is missing', async () => {
    const response = await stack.request<ErrorBody>('/ping');
    expect(response.status).toBe(401);
    expect(response.body.statusCode).toBe(401);
    expect(response.body.error).toBe('Unauthorized');
    expect(response.body.message).toMatch(/missing/i);
  });

  it.each([
    ['too short', 'cus_abc'],
    ['too long', 'cus_' + 'a'.repeat(41)],
    ['wrong prefix', 'key_' + 'a'.repeat(40)],
  ])('answers 401 "API key is malformed" for a key of the wrong shape (%s)', async (_, key) => {
    const response = await stack.request<ErrorBody>('/ping', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorized('API key is malformed'));
  });

  it('answers 401 "API key is malformed" for a real key with a bad checksum', async () => {
    const broken = flipLastChar(writer.key.key);
    expect(broken).toMatch(KEY_SHAPE);
    const variants: Array<Record<string, string>> = [
      { authorization: `Bearer ${broken}` },
      { 'x-api-key': broken },
    ];
    for (const headers of variants) {
      const response = await stack.request<ErrorBody>('/ping', { headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorized('API key is malformed'));
    }
  });

  it('answers 401 for a well-formed key that does not exist', async () => {
    const unknown = wellFormedKey();
    expect(unknown).toMatch(KEY_SHAPE);
    const response = await stack.request<ErrorBody>('/ping', {
      headers: { 'x-api-key': unknown },
    });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('Unauthorized');
    expect(response.body.message).not.toBe('API key is malformed');
    expect(response.body.message).toMatch(/not valid|revoked/i);
  });

  it('refuses a revoked key on the very next request', async () => {
    const key = await stack.createKey(writer.workspace.id, 'write');
    const headers = { authorization: `Bearer ${key.key}` };
    // Used once, so its access record is cached before the revocation.
    expect((await stack.request('/ping', { headers })).status).toBe(200);
    expect((await stack.request('/assets', { headers })).status).toBe(200);

    await stack.adminCall(GatewayAdminPatterns.keyRevoke, { id: key.id });

    const ping = await stack.request<ErrorBody>('/ping', { headers });
    expect(ping.status).toBe(401);
    expect(ping.body.message).toMatch(/revoked/i);
    const list = await stack.request<ErrorBody>('/assets', { headers: { 'x-api-key': key.key } });
    expect(list.status).toBe(401);
    // Another key of the same workspace is unaffected.
    expect((await writer.get('/ping')).status).toBe(200);
  });

  it('lets a read key call GET routes', async () => {
    expect((await reader.get('/ping')).status).toBe(200);
    expect((await reader.get('/assets')).status).toBe(200);
    expect((await reader.get('/assets?page=1')).status).toBe(200);
  });

  it('answers 403 naming the read scope when a read key writes, and writes nothing', async () => {
    const created = await writer.post<AssetDetail>('/assets', { name: 'Scope probe' });
    expect(created.status).toBe(201);
    const before = await writer.get<unknown[]>('/assets');

    const post = await reader.post<ErrorBody>('/assets', { name: 'Not allowed' });
    expect(post.status).toBe(403);
    expect(post.body.error).toBe('Forbidden');
    expect(post.body.message).toMatch(/\bread\b/);
    expect(post.body.message).toMatch(/scope/);

    const patch = await reader.patch<ErrorBody>(`/assets/${created.body.id}`, { name: 'Renamed' });
    expect(patch.status).toBe(403);
    expect(patch.body.message).toMatch(/\bread\b/);
    expect(patch.body.message).toMatch(/scope/);

    const after = await writer.get<unknown[]>('/assets');
    expect(after.body).toEqual(before.body);
    const fetched = await writer.get<AssetDetail>(`/assets/${created.body.id}`);
    expect(fetched.body.name).toBe('Scope probe');
  });

  it('answers GET /ping with exactly the documented body for a write key', async () => {
    const response = await writer.get<PingView>('/ping');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      workspace: { id: writer.workspace.id, name: writer.workspace.name, plan: 'pro' },
      key: { id: writer.key.id, prefix: writer.key.prefix, scope: 'write' },
      scopes: ['read', 'write'],
    });
    expect(writer.key.key.startsWith(writer.key.prefix)).toBe(true);
    expect(response.text).not.toContain(writer.key.key);
  });

  it('answers GET /ping with exactly the documented body for a read key', async () => {
    const response = await reader.get<PingView>('/ping');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      workspace: { id: writer.workspace.id, name: writer.workspace.name, plan: 'pro' },
      key: { id: reader.key.id, prefix: reader.key.prefix, scope: 'read' },
      scopes: ['read'],
    });
  });

  it('applies the plan gate on every request, ping included, and lifts it on upgrade', async () => {
    const tenant = await stack.tenant('pro', 'write');
    const created = await tenant.post<AssetDetail>('/assets', { name: 'Before downgrade' });
    expect(created.status).toBe(201);
    expect((await tenant.get('/ping')).status).toBe(200);

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'free',
    });

    const calls = [
      () => tenant.get('/ping'),
      () => tenant.get('/assets'),
      () => tenant.get('/assets?page=1'),
      () => tenant.get(`/assets/${created.body.id}`),
      () => tenant.post('/assets', { name: 'During downgrade' }),
      () => tenant.patch(`/assets/${created.body.id}`, { name: 'Renamed' }),
    ];
    for (const call of calls) {
      const response = await call();
      expect(response.status).toBe(403);
      const body = response.body as ErrorBody;
      expect(body.error).toBe('Forbidden');
      expect(body.message).toMatch(/\bfree plan\b/);
    }
    // The x-api-key form is gated the same way.
    const viaHeader = await stack.request<ErrorBody>('/ping', {
      headers: { 'x-api-key': tenant.key.key },
    });
    expect(viaHeader.status).toBe(403);

    await stack.adminCall(GatewayAdminPatterns.workspacePlan, {
      workspace: tenant.workspace.id,
      plan: 'pro',
    });

    const ping = await tenant.get<PingView>('/ping');
    expect(ping.status).toBe(200);
    expect(ping.body.workspace.plan).toBe('pro');
    const list = await tenant.get<Array<{ id: string; name: string }>>('/assets');
    expect(list.status).toBe(200);
    // Nothing was written or renamed while the plan was free.
    expect(list.body.map((asset) => asset.name)).toEqual(['Before downgrade']);
  });
});
