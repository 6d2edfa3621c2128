import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { receivedSpans } from './otlp-traces';

/** Spans of two services, one a child of another across them, with every kind of attribute. */
function exportedSpans() {
  const exporter = new InMemorySpanExporter();
  const providerOf = (service: string) =>
    new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
  const parent = providerOf('custodian-gateway').getTracer('http').startSpan('POST /api/v1/assets');
  const sql = providerOf('custodian-register')
    .getTracer('pg')
    .startSpan(
      'INSERT register.assets',
      {
        attributes: {
          'db.query.text': 'INSERT INTO register.assets (id) VALUES ($1)',
          'http.response.status_code': 201,
          'custodian.ratio': 0.25,
          'custodian.retried': false,
        },
      },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
  sql.end();
  parent.end();
  return { spans: exporter.getFinishedSpans(), parent, sql };
}

describe('receivedSpans', () => {
  it('reads the same spans from the protobuf and the JSON encodings', () => {
    const { spans, parent, sql } = exportedSpans();
    const protobuf = receivedSpans(
      'application/x-protobuf',
      Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) ?? []),
    );
    const json = receivedSpans(
      'application/json',
      Buffer.from(JsonTraceSerializer.serializeRequest(spans) ?? []),
    );
    const expected = [
      {
        service: 'custodian-register',
        traceId: parent.spanContext().traceId,
        spanId: sql.spanContext().spanId,
        parentSpanId: parent.spanContext().spanId,
        name: 'INSERT register.assets',
        attributes: {
          'db.query.text': 'INSERT INTO register.assets (id) VALUES ($1)',
          'http.response.status_code': 201,
          'custodian.ratio': 0.25,
          'custodian.retried': false,
        },
      },
      {
        service: 'custodian-gateway',
        traceId: parent.spanContext().traceId,
        spanId: parent.spanContext().spanId,
        parentSpanId: undefined,
        name: 'POST /api/v1/assets',
        attributes: {},
      },
    ];
    expect(protobuf).toEqual(expected);
    expect(json).toEqual(expected);
  });

  it('refuses a truncated protobuf message rather than reading past it', () => {
    expect(() => receivedSpans('application/x-protobuf', Buffer.from([0x0a, 0x05, 0x12]))).toThrow(
      /truncated/,
    );
  });
});
