import { WorkerAdminPatterns, type CreatedWebhookView } from '@custodian/contracts';
import { eventually, receivedSpans, WebhookReceiver, type ReceivedSpan } from '@custodian/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestStack, type Tenant } from './support/stack';

/**
 * A local OpenTelemetry collector, as small as one can be: it takes what the three apps' OTLP
 * exporters POST to /v1/traces (protobuf, their default) and keeps the spans.
 */
class SpanCollector {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          this.spans.push(...receivedSpans(request.headers['content-type'], Buffer.concat(chunks)));
        }
        // An empty body is a full success in both encodings.
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * Issue 15, item 2: with tracing on, one POST /api/v1/assets is one trace from the gateway's
 * HTTP span, over the RPC hop into the register and its SQL, through the outbox relay (whose
 * span continues the trace stored with the row), the worker's fan-out, to the delivery attempt.
 */
describe('one trace from HTTP to the delivery attempt (e2e)', () => {
  const collector = new SpanCollector();
  const receiver = new WebhookReceiver();
  const stack = new TestStack({
    env: {
      OUTBOX_POLL_MS: '50',
      DELIVERY_INTERVAL_MS: '50',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
  });
  let tenant: Tenant;

  beforeAll(async () => {
    await collector.start();
    await receiver.start();
    stack.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
    await stack.start();
    tenant = await stack.tenant('pro', 'write');
  }, 30_000);

  afterAll(async () => {
    await stack.stop();
    await receiver.stop();
    await collector.stop();
  });

  it('follows one asset creation across the three apps in one trace', async () => {
    await stack.workerAdminCall<CreatedWebhookView>(WorkerAdminPatterns.webhookCreate, {
      workspace: tenant.workspace.id,
      url: receiver.url('/traced'),
      events: 'asset.created',
    });
    const created = await tenant.request('/assets', {
      method: 'POST',
      body: { name: 'Traced' },
      headers: { 'x-request-id': 'trace-me-1' },
    });
    expect(created.status).toBe(201);

    const trace = await eventually(
      () => {
        const root = collector.spans.find(
          (span) =>
            span.name === 'POST /api/v1/assets' &&
            span.attributes['custodian.request_id'] === 'trace-me-1',
        );
        if (!root) throw new Error('no HTTP span yet');
        const spans = collector.spans.filter((span) => span.traceId === root.traceId);
        // Each app exports its spans in its own batches: the register's publish span can reach
        // the collector after the worker's attempt span, so wait for every span asked below.
        const wanted = ['publish asset.created', 'fan-out asset.created', 'webhook asset.created'];
        const missing = wanted.filter((name) => !spans.some((span) => span.name === name));
        if (missing.length > 0) {
          throw new Error(
            `no ${missing.join(', ')} yet: ${spans.map((span) => span.name).join(', ')}`,
          );
        }
        return Promise.resolve({ root, spans });
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    const named = (name: string) => {
      const span = trace.spans.find((candidate) => candidate.name === name);
      if (!span) throw new Error(`no span ${name} in ${trace.spans.map((s) => s.name).join(', ')}`);
      return span;
    };
    const parentOf = (span: ReceivedSpan) =>
      trace.spans.find((candidate) => candidate.spanId === span.parentSpanId);

    const http = named('POST /api/v1/assets');
    const client = trace.spans.find(
      (span) => span.name === 'rpc assets.create' && span.service === 'custodian-gateway',
    );
    const server = trace.spans.find(
      (span) => span.name === 'rpc assets.create' && span.service === 'custodian-register',
    );
    const publish = named('publish asset.created');
    const fanOut = named('fan-out asset.created');
    const attempt = named('webhook asset.created');

    expect(http).toMatchObject({ service: 'custodian-gateway', parentSpanId: undefined });
    expect(http.attributes['http.response.status_code']).toBe(201);
    expect(client).toBeDefined();
    expect(parentOf(client!)).toBe(http);
    expect(server).toBeDefined();
    expect(parentOf(server!)).toBe(client);
    // The register's SQL, inside its RPC span: the asset's row and its outbox row among it.
    const sql = trace.spans.filter(
      (span) =>
        span.service === 'custodian-register' &&
        span.attributes['db.system.name'] === 'postgresql' &&
        parentOf(span) === server,
    );
    const statements = sql.map((span) => String(span.attributes['db.query.text']));
    expect(statements).toContainEqual(expect.stringMatching(/INSERT INTO register\.assets/));
    expect(statements).toContainEqual(expect.stringMatching(/INSERT INTO register\.outbox/));
    // The transaction's plumbing is no span of its own: the RPC span shows its time.
    expect(
      statements.filter((text) => /^(START TRANSACTION|COMMIT)$|set_config/.test(text)),
    ).toEqual([]);
    // The relay's span continues from the write that stored the row.
    expect(publish.service).toBe('custodian-register');
    expect(parentOf(publish)).toBe(server);
    expect(fanOut.service).toBe('custodian-webhook-worker');
    expect(parentOf(fanOut)).toBe(publish);
    expect(attempt.service).toBe('custodian-webhook-worker');
    expect(parentOf(attempt)).toBe(fanOut);
    expect(attempt.attributes).toMatchObject({
      'http.response.status_code': 200,
      'custodian.delivery.attempt': 1,
    });
    expect(new Set(trace.spans.map((span) => span.service))).toEqual(
      new Set(['custodian-gateway', 'custodian-register', 'custodian-webhook-worker']),
    );
  });

  it('traces nothing of a request its client did not sample, yet delivers it, and keeps the decision on every hop', async () => {
    // The webhook of the first test (asset.created to /traced) is still subscribed.
    const unsampledTrace = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const before = receiver.on('/traced').length;
    const created = await tenant.request('/assets', {
      method: 'POST',
      body: { name: 'Not traced' },
      headers: { traceparent: `00-${unsampledTrace}-00f067aa0ba902b7-00` },
    });
    expect(created.status).toBe(201);
    await eventually(
      () => {
        if (receiver.on('/traced').length <= before) throw new Error('not delivered yet');
        return Promise.resolve();
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    // A sampled write after it: once its attempt's span is in, the unsampled one's would be.
    const after = await tenant.request('/assets', {
      method: 'POST',
      body: { name: 'Traced after' },
      headers: { 'x-request-id': 'trace-me-2' },
    });
    expect(after.status).toBe(201);
    await eventually(
      () => {
        const root = collector.spans.find(
          (span) => span.attributes['custodian.request_id'] === 'trace-me-2',
        );
        const attempt = collector.spans.find(
          (span) => span.traceId === root?.traceId && span.name === 'webhook asset.created',
        );
        if (!attempt) throw new Error('the sampled write is not traced to its attempt yet');
        return Promise.resolve();
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(collector.spans.filter((span) => span.traceId === unsampledTrace)).toEqual([]);
    // Nor did a later hop start a trace of its own: every span is in a trace that began at HTTP.
    const rooted = new Set(
      collector.spans.filter((span) => !span.parentSpanId).map((span) => span.traceId),
    );
    const orphans = collector.spans.filter((span) => !rooted.has(span.traceId));
    expect(orphans.map((span) => `${span.service} ${span.name}`)).toEqual([]);
  });
});
