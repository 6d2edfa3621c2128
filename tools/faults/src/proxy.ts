import { connect, createServer, type Server, type Socket } from 'node:net';

/** One backend the proxy may send a connection to: a gateway replica's port. */
export interface Backend {
  label: string;
  port: number;
}

/**
 * The replicas run's load balancer: one local port in front of every gateway, handing each new
 * client connection to the next gateway in turn (round robin by connection, not by request),
 * as a Kubernetes Service (kube-proxy) or any L4 balancer does. The client's keep-alive
 * connections therefore stay on one gateway for their life: a gateway killed takes its
 * connections with it (the client sees a reset and retries with its Idempotency-Key), and a
 * restarted one gets new connections as the client opens them.
 *
 * A backend that refuses the connection (a killed gateway, its port closed) is skipped for the
 * next one, as a balancer whose health check has not caught up yet retries the connect
 * elsewhere; only if every backend refuses is the client's connection closed, which the client
 * takes as no answer. Nothing of HTTP is read: the client's bytes wait (the socket stays paused)
 * until a backend has accepted, then flow both ways untouched.
 *
 * Written for the tool rather than taken from libs/testing's TcpProxy (one target, kill and
 * listen again): that lib is test-only and not built into dist/, which the tool runs from.
 */
export class RoundRobinProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private next = 0;
  /** Connections handed to each backend (by label) since the start: which gateways served. */
  readonly handed = new Map<string, number>();
  /** Backends that refused a connect, by label: the ones skipped while they were down. */
  readonly refused = new Map<string, number>();
  port = 0;

  /** `backends` is read at every connection: replicas keep their ports, but may be added. */
  constructor(private readonly backends: () => Backend[]) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<number> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.on('error', () => client.destroy());
    const backends = this.backends();
    const first = this.next++ % Math.max(1, backends.length);
    // Each backend at most once per connection, starting with this connection's turn.
    const order = backends.map((_, i) => backends[(first + i) % backends.length] as Backend);
    this.connectTo(client, order);
  }

  private connectTo(client: Socket, remaining: Backend[]): void {
    const [backend, ...rest] = remaining;
    if (!backend || client.destroyed) {
      client.destroy();
      return;
    }
    const upstream = connect(backend.port, '127.0.0.1');
    const refused = (error: NodeJS.ErrnoException) => {
      upstream.destroy();
      if (error.code !== 'ECONNREFUSED') {
        client.destroy();
        return;
      }
      this.refused.set(backend.label, (this.refused.get(backend.label) ?? 0) + 1);
      this.connectTo(client, rest);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      this.handed.set(backend.label, (this.handed.get(backend.label) ?? 0) + 1);
      this.track(upstream);
      // From here either side failing ends both: the client sees its connection cut.
      for (const socket of [client, upstream]) {
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      // The client gone: its upstream has no one to answer (an upstream that ends first
      // ends the client through the pipe, after what it sent is flushed).
      client.once('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }
}
