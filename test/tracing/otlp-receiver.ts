import { afterAll } from "bun:test";

/** A span as OTLP/JSON carries it, with its process's `service.name` and its attributes as a plain record. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number; message?: string };
}

type KeyValue = { key: string; value: Record<string, unknown> };

const valueOf = (v: Record<string, unknown>): unknown =>
  v.stringValue ?? v.boolValue ?? v.doubleValue ?? (v.intValue === undefined ? undefined : Number(v.intValue));

const record = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

/**
 * An OTLP/HTTP receiver on loopback (`POST /v1/traces`), standing in for a collector: it keeps every request's
 * media type and raw body, and decodes the spans of the JSON ones (the protobuf ones are only counted).
 */
export function otlpReceiver() {
  const requests: { contentType: string; body: Uint8Array }[] = [];
  const spans: ReceivedSpan[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      if (req.method !== "POST" || new URL(req.url).pathname !== "/v1/traces")
        return new Response("not found", { status: 404 });
      const body = new Uint8Array(await req.arrayBuffer());
      const contentType = req.headers.get("content-type") ?? "";
      requests.push({ contentType, body });
      if (contentType.startsWith("application/json"))
        spans.push(...spansOf(JSON.parse(new TextDecoder().decode(body))));
      return Response.json({});
    },
  });
  afterAll(() => server.stop(true));
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    spans,
    /** Every body received, as text: what no span may contain is looked for here. */
    text: () => requests.map((r) => new TextDecoder().decode(r.body)).join("\n"),
    inTrace: (traceId: string) => spans.filter((s) => s.traceId === traceId),
  };
}

function spansOf(doc: any): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of doc.resourceSpans ?? []) {
    const service = String(record(rs.resource?.attributes)["service.name"]);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          service,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          attributes: record(s.attributes),
          links: (s.links ?? []).map((l: any) => ({ traceId: l.traceId, spanId: l.spanId })),
          status: s.status ?? {},
        });
  }
  return out;
}
