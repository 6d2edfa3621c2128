import { createCustodianClient } from '@custodian/api-client';
import { EVENT_KEYS, PING_EVENT } from '@custodian/contracts';
import { httpRequest } from '@custodian/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestStack, type Tenant } from './support/stack';

const ROOT = join(__dirname, '../../..');

interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: { requestBody: unknown } }>;
  components: { securitySchemes: Record<string, unknown>; headers: Record<string, unknown> };
}
interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
}

/** The routes of spec section 4 and the statuses it lists for each. */
const SPEC_ROUTES: Array<[string, string, number[]]> = [
  ['get', '/api/v1/ping', [200, 401, 403]],
  ['get', '/api/v1/assets', [200, 401, 403, 429]],
  ['post', '/api/v1/assets', [201, 401, 403, 429]],
  ['get', '/api/v1/assets/{id}', [200, 401, 403, 404, 429]],
  ['patch', '/api/v1/assets/{id}', [200, 401, 403, 404, 429]],
  ['get', '/api/v1/people', [200, 401, 403, 429]],
  ['post', '/api/v1/people', [201, 401, 403, 429]],
  ['get', '/api/v1/people/{id}', [200, 401, 403, 404, 429]],
  ['patch', '/api/v1/people/{id}', [200, 401, 403, 404, 429]],
  ['get', '/api/v1/members', [200, 401, 403, 429]],
  ['post', '/api/v1/members', [201, 401, 403, 429]],
  ['patch', '/api/v1/members/{userId}', [200, 401, 403, 404, 429]],
];

describe('the published contract: /api/v1/openapi.json, /docs and a typed client (e2e)', () => {
  const stack = new TestStack({ worker: false });
  let tenant: Tenant;
  let served: Document;

  beforeAll(async () => {
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
    const response = await stack.request<Document>('/openapi.json');
    served = response.body;
  }, 30_000);

  afterAll(() => stack.stop());

  it('serves the document without a key, as OpenAPI 3.1 with version 1.0', async () => {
    const response = await stack.request('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(served.openapi).toBe('3.1.0');
    expect(served.info.version).toBe('1.0');
  });

  it('is the committed docs/openapi.json (regenerate with npm run openapi)', () => {
    const committed: unknown = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
    expect(served).toEqual(committed);
  });

  it('describes every route of the spec with both key schemes, its statuses and limit headers', () => {
    expect(Object.keys(served.components.securitySchemes).sort()).toEqual(['apiKey', 'bearer']);
    expect(served.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(served.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      // The keys are `cus_` keys, not JWTs (Nest's default bearerFormat).
      bearerFormat: 'cus_ API key',
    });
    for (const [method, path, statuses] of SPEC_ROUTES) {
      const operation = served.paths[path]?.[method];
      expect({ route: `${method} ${path}`, found: operation !== undefined }).toEqual({
        route: `${method} ${path}`,
        found: true,
      });
      expect(operation!.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
      for (const status of statuses) {
        expect({
          route: `${method} ${path}`,
          status,
          documented: String(status) in operation!.responses,
        }).toEqual({ route: `${method} ${path}`, status, documented: true });
      }
      const success = operation!.responses[String(statuses[0])]!;
      expect(Object.keys(success.headers ?? {})).toEqual([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'X-Quota-Limit',
        'X-Quota-Used',
        'X-Quota-Remaining',
      ]);
      if (method !== 'get') expect(operation!.requestBody?.required).toBe(true);
    }
    expect(served.paths['/api/v1/assets']!.get!.responses['429']!.$ref).toBe(
      '#/components/responses/TooManyRequests',
    );
  });

  it('lists the 41 event keys and ping under webhooks, each with its envelope', () => {
    expect(Object.keys(served.webhooks).sort()).toEqual([...EVENT_KEYS, PING_EVENT].sort());
    expect(Object.keys(served.webhooks)).toHaveLength(42);
    expect(served.webhooks['asset.created']!.post.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: {
            required: ['id', 'event', 'created_at', 'data'],
            properties: { event: { const: 'asset.created' } },
          },
        },
      },
    });
  });

  it('serves the reference page and its assets from the gateway itself', async () => {
    const root = stack.baseUrl.replace(/\/api\/v1$/, '');
    const page = await httpRequest(`${root}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('/docs/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    const init = await httpRequest(`${root}/docs/init.js`);
    expect(init.text).toContain("url: '/api/v1/openapi.json'");
    for (const [file, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui-standalone-preset.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
    ] as const) {
      const asset = await httpRequest(`${root}/docs/${file}`);
      expect({ file, status: asset.status }).toEqual({ file, status: 200 });
      expect(asset.headers.get('content-type')).toMatch(type);
      expect(asset.text.length).toBeGreaterThan(1000);
    }
    // Only the three files: not other files of the package, not inherited object keys.
    for (const file of ['package.json', 'index.html', 'constructor', '__proto__', 'toString']) {
      const missing = await httpRequest(`${root}/docs/${file}`);
      expect({ file, status: missing.status }).toEqual({ file, status: 404 });
      expect(missing.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('generates, with the openapi-typescript CLI on the served URL, the committed client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custodian-client-'));
    try {
      const out = join(dir, 'schema.d.ts');
      await promisify(execFile)(
        join(ROOT, 'node_modules/.bin/openapi-typescript'),
        [`${stack.baseUrl}/openapi.json`, '-o', out],
        { cwd: ROOT },
      );
      const committed = readFileSync(join(ROOT, 'libs/api-client/src/schema.d.ts'), 'utf8');
      expect(readFileSync(out, 'utf8') === committed).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('documents the 413 and 415 a POST without a body schema can still answer', async () => {
    const accept = served.paths['/api/v1/invitations/accept']!.post!;
    expect(Object.keys(accept.responses)).toEqual(expect.arrayContaining(['413', '415']));
    // Validated against the document by the contract check like every other response.
    const response = await stack.request('/invitations/accept?token=x', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
  });

  it('calls three routes through the typed client', async () => {
    const client = createCustodianClient(stack.baseUrl.replace(/\/api\/v1$/, ''), tenant.key.key);

    const ping = await client.GET('/api/v1/ping');
    expect(ping.response.status).toBe(200);
    expect(ping.data?.workspace.id).toBe(tenant.workspace.id);
    expect(ping.data?.scopes).toEqual(['read', 'write']);

    const created = await client.POST('/api/v1/assets', {
      body: { name: 'Typed client laptop', status: 'active', brand: 'Lenovo' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data?.name).toBe('Typed client laptop');
    const id = created.data!.id;

    const listed = await client.GET('/api/v1/assets', {
      params: { query: { page: 1, pageSize: 10, search: 'Typed client' } },
    });
    expect(listed.response.status).toBe(200);
    const page = listed.data;
    if (page === undefined || Array.isArray(page)) throw new Error('expected the page envelope');
    expect(page.total).toBe(1);
    expect(page.data.map((asset) => asset.id)).toEqual([id]);

    const refused = await client.POST('/api/v1/assets', { body: { name: '' } });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(refused.error?.message).toMatch(/name/);
  });
});
