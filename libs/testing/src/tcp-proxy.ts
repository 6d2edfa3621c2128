import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (the machine's RabbitMQ), for tests of what an app
 * does when that server goes away: `kill()` drops every connection and refuses new ones, as a
 * broker killed would; `listen()` again, on the same port, brings it back. Nothing of the
 * protocol is touched: the bytes go to the real server.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  /** Accepts connections (on the port of the first listen, if there was one). */
  async listen(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Drops every connection at once and refuses new ones until listen(). */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Connections open through it now (each client and its upstream count apart). */
  get connections(): number {
    return this.sockets.size;
  }
}
