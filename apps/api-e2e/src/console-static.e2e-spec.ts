import { type ErrorBody } from '@custodian/contracts';
import { httpRequest } from '@custodian/testing';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { TestStack } from './support/stack';

const DIST = path.resolve(__dirname, '../../../dist/apps/console');

/** A GET whose body is left as the bytes on the wire (fetch would decode them). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on('error', reject);
  });
}

/**
 * The gateway serving the built console (apps/api-e2e builds it first): compressed as the build
 * left it, cached by content hash, every screen answered with the app, and a clear page when
 * there is no build.
 */
describe('the console served by the gateway (e2e)', () => {
  const stack = new TestStack({ env: { CONSOLE_DIR: DIST } });
  let origin: string;
  const script = readdirSync(path.join(DIST, 'assets')).find((file) => /\.js$/.test(file))!;

  beforeAll(async () => {
    await stack.start();
    origin = new URL(stack.baseUrl).origin;
  }, 60_000);

  afterAll(() => stack.stop());

  it('sends the brotli or gzip file the build wrote, cached for a year', async () => {
    const raw = readFileSync(path.join(DIST, 'assets', script));
    const url = `${origin}/console/assets/${script}`;

    const brotli = await rawGet(url, { 'accept-encoding': 'gzip, br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['vary']).toMatch(/accept-encoding/i);
    expect(brotli.body.length).toBeLessThan(raw.length / 3);
    expect(zlib.brotliDecompressSync(brotli.body).equals(raw)).toBe(true);

    const gzip = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).equals(raw)).toBe(true);

    const identity = await rawGet(url);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(raw)).toBe(true);
  });

  it('answers every screen with the app, never cached, under a strict CSP', async () => {
    const index = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    for (const screen of [
      '/console',
      '/console/',
      '/console/webhooks/whe_x',
      '/console/deliveries',
    ]) {
      const page = await httpRequest(`${origin}${screen}`);
      expect({ screen, status: page.status }).toEqual({ screen, status: 200 });
      expect(page.text).toBe(index);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
  });

  it('answers an unknown console API path with the error body, not the app', async () => {
    const missing = await httpRequest<ErrorBody>(`${origin}/console/api/nope?x=1`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'No route GET /console/api/nope',
    });
  });

  it('says how to build the console when there is no build', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'console-unbuilt-'));
    try {
      const other = new URL(await stack.startExtraGateway({ CONSOLE_DIR: empty })).origin;
      const page = await httpRequest(`${other}/console/keys`);
      expect(page.status).toBe(503);
      expect(page.text).toContain('npm run build');
      expect(page.headers.get('cache-control')).toBe('no-store');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    // A gateway of its own starts here: up to startExtraGateway's 20 s health wait.
  }, 30_000);
});
