import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpRequest } from './http';
import {
  observeGlobalFetch,
  setResponseObserver,
  type ObservedResponse,
} from './response-observer';

describe('response observer', () => {
  let server: Server;
  let base = '';
  const seen: ObservedResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, method: req.method }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    seen.length = 0;
    setResponseObserver((response) => seen.push(response));
  });

  afterEach(() => setResponseObserver(null));

  it('reports each httpRequest response once, with its body, even while fetch is observed', async () => {
    const restore = observeGlobalFetch();
    try {
      const response = await httpRequest(`${base}/missing`, { method: 'POST', body: { a: 1 } });
      expect(response.status).toBe(404);
    } finally {
      restore();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: `${base}/missing`,
      status: 404,
      text: '{"path":"/missing","method":"POST"}',
    });
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('reports direct fetch calls while observed, leaving the body readable', async () => {
    const restore = observeGlobalFetch();
    try {
      const response = await fetch(new URL('/a', base), { method: 'delete' });
      expect(await response.json()).toEqual({ path: '/a', method: 'DELETE' });
      await fetch(new Request(`${base}/b`, { method: 'PUT' }));
    } finally {
      restore();
    }
    await fetch(`${base}/c`);
    expect(seen.map((response) => [response.method, response.url, response.text])).toEqual([
      ['DELETE', `${base}/a`, '{"path":"/a","method":"DELETE"}'],
      ['PUT', `${base}/b`, '{"path":"/b","method":"PUT"}'],
    ]);
  });
});
