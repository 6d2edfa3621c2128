import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received, for signature checks. */
  rawBody: string;
  receivedAt: number;
}

/** What a path answers: a status (and body, headers), or never (to provoke a timeout). */
export type ReceiverReply =
  { status: number; body?: string; headers?: Record<string, string | string[]> } | 'hang';

/**
 * A real HTTP receiver on a free loopback port that records every webhook delivery. Each path
 * answers from its script in turn (the last entry repeats); unscripted paths answer 200.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, ReceiverReply[]>();
  private server: Server | null = null;
  private port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
        });
        const script = this.scripts.get(path);
        const reply =
          script && script.length > 1 ? script.shift()! : (script?.[0] ?? { status: 200 });
        if (reply === 'hang') return;
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? 'ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Replies for `path`, in order; the last one repeats. */
  script(path: string, ...replies: ReceiverReply[]): void {
    this.scripts.set(path, replies);
  }

  on(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }
}
