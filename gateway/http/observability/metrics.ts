import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Prometheus metrics of the gateway, served at /metrics on the internal port (`serveMetrics`). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route template and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route template and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "rate_limit_refusals_total",
    help: "Requests refused by the rate limiter",
    registers: [registry],
  });
  const natsLatency = new Histogram({
    name: "nats_request_duration_seconds",
    help: "NATS request-reply latency per subject and outcome",
    labelNames: ["subject", "outcome"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  // Label lookups hash the label set on every call; keep the bound children per series instead.
  const http = boundPerSeries((labels: { method: string; route: string; status: string }) => ({
    count: requests.labels(labels),
    time: latency.labels(labels),
  }));
  const nats = boundPerSeries((labels: { subject: string; outcome: string }) => natsLatency.labels(labels));
  return {
    registry,
    observeHttp(method: string, route: string, status: number, seconds: number) {
      const s = http(`${method} ${route} ${status}`, () => ({ method, route, status: String(status) }));
      s.count.inc();
      s.time.observe(seconds);
      if (status === 429) rateLimited.inc();
    },
    observeNats(subject: string, ms: number, outcome: string) {
      nats(`${subject} ${outcome}`, () => ({ subject, outcome })).observe(ms / 1000);
    },
  };
}

/** One bound child per series id, made from its labels the first time the id is seen. */
function boundPerSeries<L, C>(bind: (labels: L) => C): (id: string, labels: () => L) => C {
  const bound = new Map<string, C>();
  return (id, labels) => {
    let child = bound.get(id);
    if (child === undefined) bound.set(id, (child = bind(labels())));
    return child;
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The internal server of `/metrics`, on HEALTH_PORT: per-route counters describe other tenants'
 * traffic, so they are never served on the public API port. Only the cluster's scraper reaches this
 * port (k8s/base/networkpolicies.yaml).
 */
export function serveMetrics(metrics: Metrics, port: number, hostname: string) {
  return Bun.serve({
    port,
    hostname,
    async fetch(req) {
      if (new URL(req.url).pathname !== "/metrics") return new Response("not found", { status: 404 });
      const body = await metrics.registry.metrics();
      return new Response(body, { headers: { "Content-Type": metrics.registry.contentType } });
    },
  });
}
