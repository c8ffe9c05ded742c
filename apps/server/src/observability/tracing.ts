import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * Optional OpenTelemetry traces (issue 39 item 1; docs/operations.md, "Traces"): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, a span per HTTP request and per gateway batch goes to that OTLP/HTTP
 * collector (`<endpoint>/v1/traces`, JSON), in batches off the request path. Off, every call is a no-op.
 * Spans are recorded when the work has finished (its start and end known), so nothing is held open
 * and no context travels through the code. Attributes never hold a URL's query, a body or a person.
 */
export interface Tracing {
  /** A finished piece of work as a span, from `startedAt` (ms since the epoch) to now. */
  record(name: string, startedAt: number, attributes: Attributes, failed?: boolean): void;
  /** Sends what is buffered, then stops. */
  shutdown(): Promise<void>;
}

const NOOP: Tracing = { record() {}, shutdown: () => Promise.resolve() };

export function createTracing(endpoint: string | undefined): Tracing {
  if (!endpoint) return NOOP;
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('wearable-console');
  return {
    record(name, startedAt, attributes, failed = false) {
      const span = tracer.startSpan(name, {
        kind: SpanKind.SERVER,
        startTime: startedAt,
        attributes,
      });
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    shutdown: () => provider.shutdown(),
  };
}
