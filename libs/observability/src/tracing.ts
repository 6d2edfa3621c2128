import { context, trace, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { isTracingSuppressed, suppressTracing } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/** The tracer every span of ours comes from; a no-op until startTracing registers a provider. */
export function tracer(): Tracer {
  return trace.getTracer('custodian');
}

export interface TracingOptions {
  /** Where spans go; default the OTLP/HTTP exporter the OTEL_EXPORTER_OTLP_* env configures. */
  exporter?: SpanExporter;
  /** Export each span as it ends (tests) instead of in batches. */
  simple?: boolean;
}

/**
 * Whether the environment asks for traces: an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT
 * or its traces-only variant), or OTEL_TRACES_EXPORTER=otlp; and OTEL_SDK_DISABLED is not true.
 * Off by default, so a deployment without a collector pays nothing.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_TRACES_EXPORTER === 'otlp',
  );
}

/**
 * The OTLP/HTTP exporter the environment asks for: protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL
 * (or its traces-only variant) says `http/json`, as OpenTelemetry's own default is. Protobuf
 * sends less than half the bytes of JSON for the same spans, at the same CPU. gRPC is not
 * offered: it would add a gRPC stack to every image for what a collector takes over HTTP.
 * Endpoint, headers, timeout and compression come from OpenTelemetry's own variables.
 */
export function traceExporterFor(env: NodeJS.ProcessEnv = process.env): SpanExporter {
  const variable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[variable] || 'http/protobuf';
  if (protocol === 'http/protobuf') return new OtlpProtobufExporter();
  if (protocol === 'http/json') return new OtlpJsonExporter();
  throw new Error(
    `${variable} must be http/protobuf or http/json (got "${protocol}"): traces are sent over OTLP/HTTP`,
  );
}

/** The samplers OpenTelemetry's SDK builds from OTEL_TRACES_SAMPLER. */
const SAMPLERS = new Set([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]);

/**
 * Refuses a sampler setting the SDK would not honour. Left to the SDK, an unknown sampler name
 * or a ratio outside 0..1 only logs a warning and traces every request: a deployment that
 * meant to trace one request in ten would pay for all of them without a sign.
 */
export function checkSamplerSettings(env: NodeJS.ProcessEnv = process.env): void {
  const sampler = env.OTEL_TRACES_SAMPLER;
  if (sampler && !SAMPLERS.has(sampler)) {
    throw new Error(
      `OTEL_TRACES_SAMPLER must be one of ${[...SAMPLERS].join(', ')} (got "${sampler}")`,
    );
  }
  const ratio = env.OTEL_TRACES_SAMPLER_ARG;
  if (sampler?.endsWith('traceidratio') && ratio) {
    const value = Number(ratio);
    if (ratio.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new Error(
        `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, the share of traces kept (got "${ratio}")`,
      );
    }
  }
}

let provider: NodeTracerProvider | null = null;

/**
 * Whether spans are being recorded. Hot paths ask this first and skip trace work altogether
 * when tracing is off, so an untraced deployment pays for no span, scope or propagation.
 */
export function tracingOn(): boolean {
  return provider !== null;
}

/**
 * Whether a span started here would be recorded: tracing is on and the current work is not in
 * a trace whose sampling said no (see request-context's unsampled traces), where starting one
 * would only cost.
 */
export function spansHere(): boolean {
  return provider !== null && !isTracingSuppressed(context.active());
}

/**
 * Starts OpenTelemetry tracing for `service` when the environment asks for it (or an exporter
 * is given): W3C trace context, an AsyncLocalStorage context manager, and spans for Postgres
 * queries (pg's instrumentation, which must be in place before pg is first loaded: each app's
 * main.ts imports its tracing file first). Our own spans (HTTP, RPC, outbox, fan-out, attempts)
 * come from `tracer()`. Returns whether tracing is on. The apps are compiled by tsc, not
 * bundled, so pg stays a module the instrumentation can patch.
 */
export function startTracing(
  service: string,
  options: TracingOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (provider) return true;
  if (!options.exporter && !tracingWanted(env)) return false;
  checkSamplerSettings(env);
  const exporter = options.exporter ?? traceExporterFor(env);
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME || `custodian-${service}`,
      [ATTR_SERVICE_VERSION]: env.npm_package_version ?? '0.1.0',
    }),
    spanProcessors: [
      options.simple ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    // Only queries made inside a trace: the pollers' queries would otherwise each start one.
    // Pool checkouts are not worth a span each: the query spans show the waits.
    instrumentations: [
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  return true;
}

/** Sends what is buffered and stops; for graceful shutdown. */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = null;
  await stopping?.shutdown();
}

/**
 * Runs `work` inside a new active span when tracing is on (ending it when `work` settles), and
 * plainly, with no span, when it is off. `options` may be a function, so attributes that cost
 * something to compute are computed only for a span.
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions | (() => SpanOptions),
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!spansHere()) return work(undefined);
  const resolved = typeof options === 'function' ? options() : options;
  return tracer().startActiveSpan(name, resolved, (span) => work(span).finally(() => span.end()));
}

/**
 * For work whose own statements are plumbing, such as a transaction's START and COMMIT and the
 * settings it begins with: `outer` runs with no spans, and what it hands to `traced` runs in
 * the current trace again, so the statements that say something are children of the same span
 * as before. A traced write made 20 spans, 3 of them plumbing; each span recorded costs tens of
 * microseconds in a busy app (docs/operations.md, "What observability costs"). The request id
 * and everything else in the context stay as they are.
 */
export function untracedAround<T>(outer: (traced: <R>(inner: () => R) => R) => T): T {
  if (!spansHere()) return outer((inner) => inner());
  const active = context.active();
  return context.with(suppressTracing(active), () => outer((inner) => context.with(active, inner)));
}
