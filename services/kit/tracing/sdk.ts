import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind as OtelKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { samplerOf } from "./sampler";
import type { TracingSettings } from "./settings";
import type { SpanKind, SpanOptions, TraceSpan, Tracer } from "./tracer";
import type { TraceIds } from "./trace-context";

/**
 * The Tracer on OpenTelemetry's SDK: a TracerProvider with a batching processor and the OTLP/HTTP exporter of
 * the configured protocol. Imported only when tracing is on (setup.ts). Parents are passed explicitly as span
 * contexts: no global context manager is installed, so nothing else in the process changes.
 */
export async function sdkTracer(settings: TracingSettings, version: string): Promise<Tracer> {
  const { OTLPTraceExporter } =
    settings.protocol === "http/json"
      ? await import("@opentelemetry/exporter-trace-otlp-http")
      : await import("@opentelemetry/exporter-trace-otlp-proto");
  // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME win over the defaults (envDetector reads both).
  const resource = resourceFromAttributes({
    "service.name": settings.serviceName,
    "service.namespace": "memory-service",
    "service.version": version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...settings.batch })],
  });
  const otel = provider.getTracer("memory-service", version);
  return {
    start(name, opts) {
      const span = otel.startSpan(name, optionsOf(opts), contextOf(opts.parent));
      return wrap(span);
    },
    flush: () => provider.forceFlush(),
  };
}

const KINDS: Record<SpanKind, OtelKind> = {
  server: OtelKind.SERVER,
  client: OtelKind.CLIENT,
  producer: OtelKind.PRODUCER,
  consumer: OtelKind.CONSUMER,
  internal: OtelKind.INTERNAL,
};

const spanContextOf = (ids: TraceIds) => ({
  traceId: ids.traceId,
  spanId: ids.spanId,
  traceFlags: ids.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
  isRemote: true,
});

const contextOf = (parent: TraceIds | null | undefined): Context =>
  parent ? trace.setSpanContext(ROOT_CONTEXT, spanContextOf(parent)) : ROOT_CONTEXT;

const optionsOf = (opts: SpanOptions) => ({
  kind: KINDS[opts.kind],
  ...(opts.attributes ? { attributes: opts.attributes as Attributes } : {}),
  ...(opts.links?.length ? { links: opts.links.map((ids) => ({ context: spanContextOf(ids) })) } : {}),
});

function wrap(span: Span): TraceSpan {
  const c = span.spanContext();
  return {
    ids: { traceId: c.traceId, spanId: c.spanId, sampled: (c.traceFlags & TraceFlags.SAMPLED) !== 0 },
    set: (key, value) => void span.setAttribute(key, value),
    fail: (code) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      span.setAttribute("error.type", code);
    },
    end: () => span.end(),
  };
}
