import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import {
  currentMessageContext,
  currentRequestId,
  messageContextUnder,
  spanAcrossHop,
  messageContextFrom,
  runInMessageContext,
  runWithRequestId,
} from './request-context';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  inSpan,
  spansHere,
  startTracing,
  stopTracing,
  checkSamplerSettings,
  traceExporterFor,
  tracer,
  tracingWanted,
  untracedAround,
} from './tracing';

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();

  beforeAll(() => {
    expect(startTracing('test', { exporter, simple: true })).toBe(true);
  });

  afterAll(() => stopTracing());

  it('is off unless the environment names an OTLP endpoint or exporter', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });

  it('carries a span across a message hop: the receiving side is its child, in the same trace', () => {
    exporter.reset();
    const sender = tracer().startSpan('send');
    const carried = runWithRequestId('req-7', () =>
      context.with(trace.setSpan(context.active(), sender), currentMessageContext),
    );
    expect(carried).toEqual({
      'x-request-id': 'req-7',
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/) as string,
    });
    // As stored (jsonb) and read back on the other side of the hop.
    const received = messageContextFrom(JSON.parse(JSON.stringify(carried)));
    runInMessageContext(received, () => tracer().startSpan('receive').end());
    sender.end();
    const [receive, send] = exporter.getFinishedSpans();
    expect(receive?.name).toBe('receive');
    expect(receive?.spanContext().traceId).toBe(send?.spanContext().traceId);
    expect(receive?.parentSpanContext?.spanId).toBe(send?.spanContext().spanId);
  });

  it('drops a malformed traceparent, and starts no trace from a context without one', () => {
    exporter.reset();
    expect(messageContextFrom({ traceparent: 'not-a-trace', 'x-request-id': 'r' })).toEqual({
      'x-request-id': 'r',
    });
    runInMessageContext({ 'x-request-id': 'r' }, () => tracer().startSpan('alone').end());
    const [alone] = exporter.getFinishedSpans();
    expect(alone?.parentSpanContext).toBeUndefined();
  });

  it('keeps the request id in the trace context, through awaits, and outside a request none', async () => {
    const seen = await runWithRequestId('req-8', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const inner = runWithRequestId(undefined, currentRequestId);
      return { id: currentRequestId(), inner };
    });
    // With tracing on, both ends read the trace context: no second AsyncLocalStorage.
    expect(seen).toEqual({ id: 'req-8', inner: undefined });
    expect(currentRequestId()).toBeUndefined();
  });

  it('sends a hop on with the same request, under the hop span', () => {
    exporter.reset();
    const sender = tracer().startSpan('send');
    const carried = runWithRequestId('req-9', () => messageContextUnder(sender));
    const { span, onward } = spanAcrossHop(carried, 'relay', {});
    span?.end();
    sender.end();
    const [relay] = exporter.getFinishedSpans();
    expect(relay?.parentSpanContext?.spanId).toBe(sender.spanContext().spanId);
    expect(onward).toEqual({
      'x-request-id': 'req-9',
      traceparent: `00-${sender.spanContext().traceId}-${relay?.spanContext().spanId}-01`,
    });
  });

  it('runs a trace its sender did not sample without spans, and passes the decision on', async () => {
    exporter.reset();
    const carried = {
      'x-request-id': 'req-10',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00',
      tracestate: 'vendor=1',
    };
    const seen = await runInMessageContext(carried, () =>
      inSpan('rpc assets.get', {}, (span) =>
        Promise.resolve({
          span,
          // What pg's instrumentation asks before it makes a span for a query.
          active: trace.getSpan(context.active()),
          here: spansHere(),
          onward: currentMessageContext(),
          id: currentRequestId(),
        }),
      ),
    );
    expect(seen).toEqual({
      span: undefined,
      active: undefined,
      here: false,
      onward: carried,
      id: 'req-10',
    });
    const hop = spanAcrossHop(carried, 'publish asset.created', {});
    expect(hop).toEqual({ span: undefined, onward: carried });
    expect(exporter.getFinishedSpans()).toEqual([]);
    // A sampled one is traced as before.
    const sampled = { ...carried, traceparent: carried.traceparent.replace(/-00$/, '-01') };
    await runInMessageContext(sampled, () => inSpan('rpc assets.get', {}, () => Promise.resolve()));
    expect(exporter.getFinishedSpans().map((span) => span.parentSpanContext?.spanId)).toEqual([
      'b7ad6b7169203331',
    ]);
  });

  // What each exporter sends over HTTP is checked end to end: the tracing e2e test's collector
  // reads the default (protobuf), and the exporters cannot send from inside Jest's VM (they
  // load their HTTP agent with a dynamic import).
  it('exports OTLP protobuf by default, as OpenTelemetry does, and JSON when asked', () => {
    expect(traceExporterFor({})).toBeInstanceOf(OtlpProtobufExporter);
    expect(traceExporterFor({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBeInstanceOf(
      OtlpProtobufExporter,
    );
    expect(traceExporterFor({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeInstanceOf(
      OtlpJsonExporter,
    );
    // The traces-only variable wins over the general one.
    expect(
      traceExporterFor({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toBeInstanceOf(OtlpJsonExporter);
  });

  it('refuses gRPC or an unknown protocol at start, naming the variable', () => {
    expect(() => traceExporterFor({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got "grpc")',
    );
    expect(() => traceExporterFor({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'udp' })).toThrow(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be/,
    );
  });

  it('takes the samplers OpenTelemetry builds, and refuses a name or ratio it would ignore', () => {
    expect(() => checkSamplerSettings({})).not.toThrow();
    expect(() =>
      checkSamplerSettings({
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      }),
    ).not.toThrow();
    expect(() => checkSamplerSettings({ OTEL_TRACES_SAMPLER: 'always_off' })).not.toThrow();
    expect(() => checkSamplerSettings({ OTEL_TRACES_SAMPLER: 'parentbased_ratio' })).toThrow(
      /OTEL_TRACES_SAMPLER must be one of .*"parentbased_ratio"/,
    );
    for (const ratio of ['10%', '1.5', '-0.1', ' ']) {
      expect(() =>
        checkSamplerSettings({
          OTEL_TRACES_SAMPLER: 'traceidratio',
          OTEL_TRACES_SAMPLER_ARG: ratio,
        }),
      ).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    }
  });

  it('leaves plumbing untraced and traces what it hands back, under the same parent', async () => {
    exporter.reset();
    const parent = tracer().startSpan('rpc');
    await runWithRequestId('req-9', () =>
      context.with(trace.setSpan(context.active(), parent), () =>
        untracedAround(async (traced) => {
          tracer().startSpan('START TRANSACTION').end();
          expect(currentRequestId()).toBe('req-9');
          await traced(async () => {
            await Promise.resolve();
            tracer().startSpan('INSERT').end();
          });
          tracer().startSpan('COMMIT').end();
        }),
      ),
    );
    parent.end();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['INSERT', 'rpc']);
    expect(spans[0]?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });
});
