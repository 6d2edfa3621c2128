import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import {
  currentMessageContext,
  messageContextFrom,
  runInMessageContext,
  runWithRequestId,
} from './request-context';
import { startTracing, stopTracing, tracer, tracingWanted } from './tracing';

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
});
