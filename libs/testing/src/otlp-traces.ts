/**
 * Spans as a collector receives them from OTLP/HTTP exporters, in either encoding (protobuf, the
 * default, or JSON), for tests and benches that stand in for a collector. Protobuf is read from
 * the wire format directly, for the few fields a test asks about: it is the OTLP trace schema's
 * numbering (opentelemetry-proto, trace/v1 and common/v1), not a general decoder.
 */
export interface ReceivedSpan {
  /** The resource's `service.name`. */
  service: string;
  /** Hex, as in `traceparent`. */
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** The spans of one export request, by its content type. */
export function receivedSpans(contentType: string | undefined, body: Buffer): ReceivedSpan[] {
  return contentType?.includes('json')
    ? spansFromJson(JSON.parse(body.toString()) as OtlpJsonExport)
    : spansFromProtobuf(body);
}

interface OtlpJsonValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpJsonAttribute {
  key: string;
  value: OtlpJsonValue;
}

interface OtlpJsonExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpJsonAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpJsonAttribute[];
      }>;
    }>;
  }>;
}

const jsonValue = (value: OtlpJsonValue): unknown =>
  value.stringValue ??
  value.boolValue ??
  value.doubleValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue));

const jsonAttributes = (attributes: OtlpJsonAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, jsonValue(value)]));

function spansFromJson(body: OtlpJsonExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service = String(jsonAttributes(resourceSpans.resource?.attributes)['service.name']);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          name: span.name,
          attributes: jsonAttributes(span.attributes),
        });
      }
    }
  }
  return spans;
}

/** A protobuf message's fields: number → values (a view for length-delimited, else a number). */
type Fields = Map<number, Array<Uint8Array | number>>;

function fieldsOf(message: Uint8Array): Fields {
  const fields: Fields = new Map();
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = message[at++];
      if (byte === undefined) throw new Error('truncated protobuf varint');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const add = (field: number, value: Uint8Array | number) => {
    const values = fields.get(field) ?? [];
    values.push(value);
    fields.set(field, values);
  };
  while (at < message.length) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (wireType === 0) add(field, varint());
    else if (wireType === 1) {
      // Read as a double, AnyValue's only 64-bit field asked for (a span's times are not).
      if (at + 8 > message.length) throw new Error('truncated protobuf message');
      add(field, view.getFloat64(at, true));
      at += 8;
    } else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = varint();
      if (at + length > message.length) throw new Error('truncated protobuf message');
      add(field, message.subarray(at, at + length));
      at += length;
    } else throw new Error(`unsupported protobuf wire type ${wireType}`);
  }
  return fields;
}

const messages = (fields: Fields, field: number): Uint8Array[] =>
  (fields.get(field) ?? []).filter((value): value is Uint8Array => value instanceof Uint8Array);
const first = (fields: Fields, field: number): Uint8Array | undefined => messages(fields, field)[0];
const text = (bytes: Uint8Array | undefined): string =>
  bytes ? Buffer.from(bytes).toString('utf8') : '';
const hex = (bytes: Uint8Array | undefined): string =>
  bytes ? Buffer.from(bytes).toString('hex') : '';

/** AnyValue: string (1), bool (2), int (3), double (4). */
function protobufValue(value: Uint8Array): unknown {
  const fields = fieldsOf(value);
  if (fields.has(1)) return text(first(fields, 1));
  const scalar = fields.get(2)?.[0] ?? fields.get(3)?.[0] ?? fields.get(4)?.[0];
  if (fields.has(2)) return scalar === 1;
  return scalar;
}

/** Repeated KeyValue: key (1), value (2). */
function protobufAttributes(fields: Fields, field: number): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const pair of messages(fields, field)) {
    const keyValue = fieldsOf(pair);
    const value = first(keyValue, 2);
    attributes[text(first(keyValue, 1))] = value ? protobufValue(value) : undefined;
  }
  return attributes;
}

/**
 * ExportTraceServiceRequest: resource_spans (1) → resource (1) with attributes (1), and
 * scope_spans (2) → spans (2): trace_id (1), span_id (2), parent_span_id (4), name (5),
 * attributes (9).
 */
function spansFromProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of messages(fieldsOf(body), 1)) {
    const outer = fieldsOf(resourceSpans);
    const resource = first(outer, 1);
    const service = String(
      (resource ? protobufAttributes(fieldsOf(resource), 1) : {})['service.name'],
    );
    for (const scope of messages(outer, 2)) {
      for (const encoded of messages(fieldsOf(scope), 2)) {
        const span = fieldsOf(encoded);
        const parent = hex(first(span, 4));
        spans.push({
          service,
          traceId: hex(first(span, 1)),
          spanId: hex(first(span, 2)),
          parentSpanId: parent || undefined,
          name: text(first(span, 5)),
          attributes: protobufAttributes(span, 9),
        });
      }
    }
  }
  return spans;
}
