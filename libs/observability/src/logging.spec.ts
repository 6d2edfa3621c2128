import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import pinoHttp from 'pino-http';
import { loggerParams, redactUrl, requestLogLevel } from './logging';
import { runWithRequestId } from './request-context';

/** The request logger as the apps configure it, writing its lines into `lines`. */
function serverAnswering(
  status: number,
  fail?: Error,
  requestId?: string,
): { server: Server; lines: object[] } {
  const lines: object[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as object);
      done();
    },
  });
  const { pinoHttp: options } = loggerParams(
    'test',
    { LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    requestId === undefined ? 'messages' : 'http',
  );
  const middleware = pinoHttp({
    ...(options as object),
    transport: undefined,
    logger: pino({ level: 'info' }, sink),
  });
  const server = createServer((req, res) => {
    // As the gateway's genReqId leaves it (apps/gateway/src/http/request-id.ts).
    if (requestId !== undefined) (req as { id?: string }).id = requestId;
    middleware(req, res);
    if (fail) (res as { err?: Error }).err = fail;
    res.statusCode = status;
    res.end('{}');
  });
  return { server, lines };
}

async function get(
  server: Server,
  headers: Record<string, string> = {},
  path = '/health',
): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    request({ port, path, headers }, (res) => {
      res.resume();
      res.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => server.close(resolve));
}

describe('request logs', () => {
  it('logs an expected 503 as a warning with no made-up error or stack', async () => {
    const { server, lines } = serverAnswering(503);
    await get(server);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, res: { statusCode: 503 } });
    expect(lines[0]).not.toHaveProperty('err');
  });

  it('keeps a real error, with its stack, on a 500', async () => {
    const { server, lines } = serverAnswering(500, new Error('the disk is on fire'));
    await get(server);
    expect(lines[0]).toMatchObject({ level: 50, err: { message: 'the disk is on fire' } });
    expect((lines[0] as { err: { stack: string } }).err.stack).toContain('logging.spec');
  });

  it("redacts the console's cookies and CSRF token, and both key headers", async () => {
    const { server, lines } = serverAnswering(200);
    await get(server, {
      cookie: 'custodian_session=session-id-value; custodian_csrf=csrf-secret-value',
      'x-csrf-token': 'csrf-token-value',
      authorization: 'Bearer cus_key-value',
      'x-api-key': 'cus_other-key-value',
    });
    const line = JSON.stringify(lines[0]);
    for (const secret of [
      'session-id-value',
      'csrf-secret-value',
      'csrf-token-value',
      'key-value',
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      req: { headers: { cookie: '[Redacted]', 'x-csrf-token': '[Redacted]' } },
    });
  });

  it('redacts a token in the query string whatever its spelling, by the name the server parses', async () => {
    const { server, lines } = serverAnswering(200);
    await get(server, {}, '/api/v1/invitations/accept?%74oken=tok-encoded-value&page=2');
    expect(JSON.stringify(lines[0])).not.toContain('tok-encoded-value');
    expect(lines[0]).toMatchObject({
      req: { url: '/api/v1/invitations/accept?%74oken=[Redacted]&page=2' },
    });
  });

  it("redacts a calendar feed's token from the path", async () => {
    const { server, lines } = serverAnswering(200);
    await get(server, {}, `/calendar/${'s'.repeat(43)}.ics`);
    expect(JSON.stringify(lines[0])).not.toContain('s'.repeat(43));
    expect(lines[0]).toMatchObject({ req: { url: '/calendar/[Redacted]' } });
  });

  it('names the request on its completion line by the id the app gave it (http)', async () => {
    const { server, lines } = serverAnswering(200, undefined, 'client-chosen-1');
    await get(server);
    expect(lines[0]).toMatchObject({
      requestId: 'client-chosen-1',
      req: { id: 'client-chosen-1' },
    });
  });

  it('adds the requestId of the message being served to every line (messages)', () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const { pinoHttp } = loggerParams('test', { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const { mixin } = pinoHttp as { mixin?: () => object };
    const logger = pino({ level: 'info', mixin }, sink);
    runWithRequestId('from-a-message', () => logger.info('inside'));
    logger.info('outside');
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ['inside', 'from-a-message'],
      ['outside', undefined],
    ]);
  });

  it('keeps success at info and other 5xx at error', () => {
    expect(requestLogLevel(200)).toBe('info');
    expect(requestLogLevel(404)).toBe('info');
    expect(requestLogLevel(504)).toBe('warn');
    expect(requestLogLevel(502)).toBe('error');
    expect(requestLogLevel(503, new Error('aborted'))).toBe('error');
  });
});

describe('redactUrl', () => {
  it.each([
    ['/accept?token=abc', '/accept?token=[Redacted]'],
    // Spellings the old literal match let through: the query parser reads each as `token`.
    ['/accept?%74oken=abc', '/accept?%74oken=[Redacted]'],
    ['/accept?TOKEN=abc', '/accept?TOKEN=[Redacted]'],
    ['/accept?token[]=abc&token[]=def', '/accept?token[]=[Redacted]&token[]=[Redacted]'],
    ['/accept?x=1&+token=abc', '/accept?x=1&+token=[Redacted]'],
    ['/accept?api_key=cus_x&page=2', '/accept?api_key=[Redacted]&page=2'],
    // A name that does not decode may be anything: redacted.
    ['/accept?%E0%A4%A=abc', '/accept?%E0%A4%A=[Redacted]'],
    // Others are kept as sent; the fragment is dropped.
    ['/assets?page=2&q=token', '/assets?page=2&q=token'],
    ['/assets?tokens=3#token=abc', '/assets?tokens=3'],
    ['/assets', '/assets'],
    // A calendar feed's URL is its token: the path keeps its first segment only, however spelt.
    [`/calendar/${'t'.repeat(43)}.ics`, '/calendar/[Redacted]'],
    [`/calendar/${'t'.repeat(43)}.ics?x=1&token=2`, '/calendar/[Redacted]?x=1&token=[Redacted]'],
    [`/%63alendar/${'t'.repeat(43)}.ics`, '/calendar/[Redacted]'],
    [`//Calendar/${'t'.repeat(43)}.ics`, '/calendar/[Redacted]'],
    [`/calendar/${'t'.repeat(43)}%E0%A4%A.ics`, '/calendar/[Redacted]'],
    ['/calendars', '/calendars'],
  ])('%s -> %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
