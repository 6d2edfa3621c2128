import {
  ROOT_CONTEXT,
  context,
  createContextKey,
  propagation,
  trace,
  type Context,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';
import { isTracingSuppressed, suppressTracing } from '@opentelemetry/core';
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracer, tracingOn } from './tracing';
import { randomUUID } from 'node:crypto';

/** The header that names a request, on HTTP responses and on every message it causes. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a client may choose as its request id: up to 128 characters that are safe in a log
 * line and a header (letters, digits and `._:+=@/-`, starting with a letter or digit). A UUID,
 * a ULID or a W3C trace id all fit; anything else is replaced by an id of ours rather than
 * refused, as the request itself is fine.
 */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:+=@/-]{0,127}$/;

/** The value, if it is a well-formed request id. */
export function wellFormedRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && WELL_FORMED.test(value) ? value : undefined;
}

export function newRequestId(): string {
  return randomUUID();
}

/**
 * The headers that carry a request's context across a hop (an RPC message, an outbox row and
 * the event published from it, a stored delivery): only names this module knows, each
 * well-formed: the request id, and W3C trace context (`traceparent`, `tracestate`) while
 * tracing is on.
 */
export type MessageContext = Record<string, string>;

/** W3C Trace Context: version, trace id, parent span id, flags. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** At most 512 printable ASCII characters (W3C's own bound is 32 list members). */
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

interface RequestScope {
  requestId: string;
}

/**
 * Where the request id lives while tracing is off. While it is on, the id is a value of
 * OpenTelemetry's active context instead, so one AsyncLocalStorage (the tracer's) carries both
 * and each scope is entered once: every AsyncLocalStorage in use adds its own work to every
 * promise and callback the process makes, and a second one cost the apps about 1% of their CPU
 * (`npm run bench -- observability`). This one is never entered while tracing is on, and an
 * AsyncLocalStorage never entered costs nothing.
 */
const storage = new AsyncLocalStorage<RequestScope>();

const REQUEST_ID_KEY = createContextKey('custodian.request_id');

/**
 * The trace context of a message whose trace is not sampled, kept as it came to pass it on.
 * Work in such a trace runs with tracing suppressed and no active span, so it pays for no span
 * object, no id and no pg instrumentation (which works on any query under an active span,
 * recording or not: it was most of tracing's cost in a sampled-out request), while every
 * message it sends still carries the decision (`traceparent` flags 00) onward.
 */
const UNSAMPLED_KEY = createContextKey('custodian.unsampled_trace');

/** Whether a well-formed traceparent's sampled flag is set. */
function sampledTraceparent(traceparent: string): boolean {
  return (Number.parseInt(traceparent.slice(-2), 16) & 1) === 1;
}

/** `traced` naming the request `requestId` (or no request, when undefined). */
export function withRequestId(traced: Context, requestId: string | undefined): Context {
  return requestId === undefined
    ? traced.deleteValue(REQUEST_ID_KEY)
    : traced.setValue(REQUEST_ID_KEY, requestId);
}

/** Runs `work` as part of the request `requestId` names; without one, outside any request. */
export function runWithRequestId<T>(requestId: string | undefined, work: () => T): T {
  if (tracingOn()) return context.with(withRequestId(context.active(), requestId), work);
  return requestId === undefined ? storage.exit(work) : storage.run({ requestId }, work);
}

/** The id of the request this code runs for, if any. */
export function currentRequestId(): string | undefined {
  if (tracingOn()) return context.active().getValue(REQUEST_ID_KEY) as string | undefined;
  return storage.getStore()?.requestId;
}

/**
 * The current request's context, to send along with a message: its id, and the active span's
 * trace context when tracing is on. Undefined when there is neither.
 */
export function currentMessageContext(): MessageContext | undefined {
  if (!tracingOn()) {
    const requestId = currentRequestId();
    return requestId === undefined ? undefined : { [REQUEST_ID_HEADER]: requestId };
  }
  return messageContextOf(context.active());
}

/**
 * The context to send with a message whose sending `span` records: the current request, with
 * `span` as the receiver's trace parent (tracing on).
 */
export function messageContextUnder(span: Span): MessageContext | undefined {
  return messageContextOf(trace.setSpan(context.active(), span));
}

/** What `currentMessageContext` would return with `traced` active (tracing on). */
function messageContextOf(traced: Context): MessageContext | undefined {
  const requestId = traced.getValue(REQUEST_ID_KEY) as string | undefined;
  const injected: Record<string, string> = {
    ...(traced.getValue(UNSAMPLED_KEY) as Record<string, string> | undefined),
  };
  propagation.inject(traced, injected);
  const carrier: MessageContext = {};
  if (requestId !== undefined) carrier[REQUEST_ID_HEADER] = requestId;
  if (injected.traceparent) carrier.traceparent = injected.traceparent;
  if (injected.tracestate) carrier.tracestate = injected.tracestate;
  return Object.keys(carrier).length === 0 ? undefined : carrier;
}

/**
 * The context carried by a message's headers (AMQP headers, a stored jsonb), or undefined when
 * they carry none: unknown names and malformed values are dropped, never trusted.
 */
export function messageContextFrom(headers: unknown): MessageContext | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const given = headers as Record<string, unknown>;
  const carrier: MessageContext = {};
  const requestId = wellFormedRequestId(given[REQUEST_ID_HEADER]);
  if (requestId !== undefined) carrier[REQUEST_ID_HEADER] = requestId;
  const { traceparent, tracestate } = given;
  if (typeof traceparent === 'string' && TRACEPARENT.test(traceparent)) {
    carrier.traceparent = traceparent;
    if (typeof tracestate === 'string' && TRACESTATE.test(tracestate)) {
      carrier.tracestate = tracestate;
    }
  }
  return Object.keys(carrier).length === 0 ? undefined : carrier;
}

/**
 * Runs `work` in the request a message's context names, under the trace it carries: spans
 * started inside are children of the span that sent it. A trace its sender did not sample
 * runs untraced (no spans, no SQL spans) and passes the decision on. A context that names
 * neither runs `work` outside any request and any trace.
 */
export function runInMessageContext<T>(carried: unknown, work: () => T): T {
  const carrier = messageContextFrom(carried) ?? {};
  if (!tracingOn()) return runWithRequestId(carrier[REQUEST_ID_HEADER], work);
  return context.with(carriedContext(carrier), work);
}

/** The trace context and request a carrier names, as a context to run in (tracing on). */
function carriedContext(carrier: MessageContext): Context {
  const { traceparent, tracestate } = carrier;
  const traced =
    traceparent !== undefined && !sampledTraceparent(traceparent)
      ? suppressTracing(ROOT_CONTEXT).setValue(UNSAMPLED_KEY, {
          traceparent,
          ...(tracestate === undefined ? {} : { tracestate }),
        })
      : propagation.extract(ROOT_CONTEXT, carrier);
  return withRequestId(traced, carrier[REQUEST_ID_HEADER]);
}

/** For log lines: `{ requestId }` inside a request, nothing outside one. */
export function requestLogFields(): { requestId?: string } {
  const requestId = currentRequestId();
  return requestId === undefined ? {} : { requestId };
}

/**
 * One more hop for work a message brought: a span (when tracing is on) in the trace the
 * message carried, and the carrier to send or store onward, which names the same request and,
 * as its trace parent, this span. The caller ends the span. With tracing off: no span, and the
 * carried context as it was.
 */
export function spanAcrossHop(
  carried: unknown,
  name: string,
  options: SpanOptions,
): { span: Span | undefined; onward: MessageContext | undefined } {
  if (!tracingOn()) return { span: undefined, onward: messageContextFrom(carried) };
  const traced = carriedContext(messageContextFrom(carried) ?? {});
  if (isTracingSuppressed(traced)) return { span: undefined, onward: messageContextOf(traced) };
  const span = tracer().startSpan(name, options, traced);
  return { span, onward: messageContextOf(trace.setSpan(traced, span)) };
}
