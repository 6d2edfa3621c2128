import { createServer, connect, type Server } from 'node:net';
import { freePort } from './commands';
import { RoundRobinProxy, type Backend } from './proxy';

/** A backend that answers each connection with its own name and closes it. */
async function namedServer(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end(name));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** What one connection through the proxy reads before it is closed ('' if cut at once). */
function readOnce(port: number, send = ''): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    if (send) socket.write(send);
  });
}

describe('RoundRobinProxy', () => {
  const servers: Server[] = [];
  let proxy: RoundRobinProxy | null = null;

  afterEach(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers.length = 0;
  });

  async function backends(...names: string[]): Promise<Backend[]> {
    const list: Backend[] = [];
    for (const name of names) {
      const { server, port } = await namedServer(name);
      servers.push(server);
      list.push({ label: name, port });
    }
    return list;
  }

  it('hands each new connection to the next backend in turn', async () => {
    const list = await backends('a', 'b');
    proxy = new RoundRobinProxy(() => list);
    const port = await proxy.listen();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await readOnce(port));
    expect(seen).toEqual(['a', 'b', 'a', 'b']);
    expect(Object.fromEntries(proxy.handed)).toEqual({ a: 2, b: 2 });
  });

  it('skips a backend that refuses, and closes the client only when every one does', async () => {
    const [alive] = await backends('alive');
    const down: Backend = { label: 'down', port: await freePort() };
    const list = [down, alive as Backend];
    proxy = new RoundRobinProxy(() => list);
    const port = await proxy.listen();
    expect([await readOnce(port), await readOnce(port)]).toEqual(['alive', 'alive']);
    expect(proxy.refused.get('down')).toBe(1);

    list.splice(1, 1);
    expect(await readOnce(port)).toBe('');
  });

  it('passes the client’s bytes, sent before a backend accepted, through untouched', async () => {
    const echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    servers.push(echo);
    const down: Backend = { label: 'down', port: await freePort() };
    const up: Backend = { label: 'echo', port: (echo.address() as { port: number }).port };
    proxy = new RoundRobinProxy(() => [down, up]);
    const port = await proxy.listen();
    const text = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk;
        if (received.length >= 5) socket.end();
      });
      socket.on('close', () => resolve(received));
      socket.write('hello');
    });
    expect(text).toBe('hello');
  });
});
