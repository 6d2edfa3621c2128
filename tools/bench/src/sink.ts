import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenTelemetry collector and a webhook receiver in one: answers every POST
 * at once with 200, counting the trace bytes the apps export, so the bench measures the apps' cost
 * of producing and sending them, not a collector's.
 */
export class Sink {
  traceBytes = 0;
  hooks = 0;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          // Bytes, not spans: decoding the exports would put the sink's work on the apps' cores.
          this.traceBytes += Buffer.concat(chunks).length;
        } else {
          this.hooks++;
        }
        // An empty body is a full success in both OTLP encodings, and a webhook's 200.
        response.writeHead(200).end();
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
