import { verify } from '@custodian/webhook-signature';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One event as the receiver saw it: accepted (2xx) receipts per delivery id. */
export interface ReceivedEvent {
  event: string;
  /**
   * The asset it is about: `data.id` (an `asset.*` event's asset) or `data.asset.id` (an
   * `assignment.*` event's).
   */
  subjectId: string | null;
  /** `data.due_at` of an `assignment.overdue` (ms since the epoch), else null. */
  dueAt: number | null;
  /** Delivery id → when each accepted receipt came in (ms since the epoch), in order. */
  deliveries: Map<string, number[]>;
}

/**
 * The webhook endpoint the run subscribes to `*`: records every delivery it accepts by event
 * id (the envelope's `id`) and delivery id (`X-Custodian-Delivery`), with the time of each
 * receipt (a delivery received twice is judged by when), checks each signature,
 * and can be told to fail (503) for a while, as a receiver that is down.
 */
export class WebhookReceiver {
  readonly events = new Map<string, ReceivedEvent>();
  /** Requests answered 503 while failing (the worker retries them). */
  refused = 0;
  /** Requests whose signature did not verify with the endpoint's secret. */
  badSignatures = 0;
  secret = '';
  /**
   * How long an accepted delivery waits for its answer (0: none). Recorded as received first:
   * a sender killed meanwhile has delivered it without knowing.
   */
  holdMs = 0;
  /** Accepted deliveries whose answer was held. */
  held = 0;
  private failing = false;
  private server: Server | null = null;
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (this.failing) {
          this.refused++;
          res.writeHead(503, { 'content-type': 'text/plain' }).end('down for the fault run');
          return;
        }
        const raw = Buffer.concat(chunks);
        const header = (name: string) => {
          const value = req.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        if (
          this.secret &&
          !verify(
            this.secret,
            raw,
            header('x-custodian-timestamp'),
            header('x-custodian-signature'),
          ).ok
        ) {
          this.badSignatures++;
        }
        this.record(raw, header('x-custodian-delivery') ?? '(no delivery id)');
        const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        if (this.holdMs > 0) {
          this.held++;
          setTimeout(answer, this.holdMs);
        } else {
          answer();
        }
      });
    });
    server.keepAliveTimeout = 10_000;
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** While true, every delivery is answered 503 and not recorded as received. */
  setFailing(failing: boolean): void {
    this.failing = failing;
  }

  /** Asset id → the event id of its `asset.created`, for every one received. */
  createdBySubject(): Map<string, ReceivedEvent & { id: string }> {
    const found = new Map<string, ReceivedEvent & { id: string }>();
    for (const [id, event] of this.events) {
      if (event.event === 'asset.created' && event.subjectId) {
        found.set(event.subjectId, { ...event, id });
      }
    }
    return found;
  }

  /** Every event received about one of `subjects` (asset ids), with its event id. */
  eventsAbout(subjects: Set<string>): Array<ReceivedEvent & { id: string }> {
    const found: Array<ReceivedEvent & { id: string }> = [];
    for (const [id, event] of this.events) {
      if (event.subjectId && subjects.has(event.subjectId)) found.push({ ...event, id });
    }
    return found;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private record(raw: Buffer, deliveryId: string): void {
    const at = Date.now();
    let envelope: {
      id?: unknown;
      event?: unknown;
      data?: { id?: unknown; asset?: { id?: unknown }; due_at?: unknown };
    };
    try {
      envelope = JSON.parse(raw.toString('utf8')) as typeof envelope;
    } catch {
      return;
    }
    if (typeof envelope.id !== 'string') return;
    const data = envelope.data;
    const subject = typeof data?.id === 'string' ? data.id : data?.asset?.id;
    const dueAt = typeof data?.due_at === 'string' ? Date.parse(data.due_at) : NaN;
    const entry = this.events.get(envelope.id) ?? {
      event: typeof envelope.event === 'string' ? envelope.event : '?',
      subjectId: typeof subject === 'string' ? subject : null,
      dueAt: Number.isFinite(dueAt) ? dueAt : null,
      deliveries: new Map<string, number[]>(),
    };
    entry.deliveries.set(deliveryId, [...(entry.deliveries.get(deliveryId) ?? []), at]);
    this.events.set(envelope.id, entry);
  }
}
