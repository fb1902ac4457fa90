import {
  Empty,
  headers as natsHeaders,
  type NatsConnection,
  type QueuedIterator,
  type Service,
  type ServiceMsg,
} from "nats";
import { httpStatusOf, ServiceError, toServiceError } from "../contract/errors";
import type { Binding, HandlerContext } from "./handler";
import {
  decodeJson,
  encodeJson,
  encodeReply,
  HEADER_REQUEST_ID,
  HEADER_WORKING,
  HEARTBEAT_MS,
  BUDGET_MARGIN_MS,
  readBudget,
  readCaller,
  readKeyClaim,
  readTrace,
} from "./wire";
import { tracer, withSpan } from "./tracing/tracer";
import type { TraceIds } from "./tracing/trace-context";
import { errorFields, type Logger } from "./log";
import { isDependencyDown, isStorageFull } from "./connect";

export interface ServeOptions {
  /**
   * Whether the service's dependencies met trouble since a time (performance.now()). With it, a request
   * still running when the caller's budget is about to end answers 503 if they did within RECENT_TROUBLE_MS
   * before it started, or one of the service's requests found a dependency down (its wait is a recovery, and a
   * retry soon may succeed); it is left to the caller's 504 otherwise.
   */
  troubledSince?: (since: number) => boolean;
}

/** Whether a dependency met trouble since a time, and how a handler reports that it did. */
interface Troubles {
  since: (t: number) => boolean;
  note: () => void;
  /** False without ServeOptions.troubledSince: then no request answers early (tests of the bare bus). */
  watched: boolean;
}

/**
 * How long trouble counts: a failover's requests meet closed connections at its start, then wait quietly on the
 * client's retries for seconds (4–5 s, once 13 s here) with no new error in between.
 */
export const RECENT_TROUBLE_MS = 30_000;

export interface ServedService {
  service: Service;
  /** Requests being handled right now; shutdown waits for them. */
  inFlight(): number;
  stop(): Promise<void>;
}

/**
 * Registers each binding as an endpoint of one NATS service (queue group = service name), using the
 * iterator form so that every request, whatever its handler throws and whenever, gets exactly one reply.
 */
export async function serveBindings(
  nc: NatsConnection,
  info: { name: string; version: string; description: string },
  bindings: Binding[],
  log: Logger,
  opts: ServeOptions = {},
): Promise<ServedService> {
  // The iterator form leaves the framework's error/latency counters at zero, so we keep our own
  // per endpoint and expose them as the `data` of `$SRV.STATS`.
  const counters = new Map<string, EndpointCounters>();
  const service = await nc.services.add({
    ...info,
    queue: info.name,
    statsHandler: async (endpoint) => counters.get(endpoint.subject) ?? null,
  });
  let inFlight = 0;
  const endpoints: QueuedIterator<ServiceMsg>[] = [];
  // Requests being handled → when they started; one timer sends their heartbeats (see wire.ts).
  const active = new Map<ServiceMsg, number>();
  const working = natsHeaders();
  working.set(HEADER_WORKING, "1");
  // What a handler met (a dependency down, a downstream call timed out) counts like the Redis client's trouble.
  const recent = { at: Number.NEGATIVE_INFINITY };
  const troubles: Troubles = {
    since: (t) => recent.at >= t || opts.troubledSince?.(t) === true,
    note: () => void (recent.at = performance.now()),
    watched: opts.troubledSince !== undefined,
  };
  const heartbeats = setInterval(() => {
    const due = performance.now() - HEARTBEAT_MS;
    for (const [msg, started] of active) {
      if (started > due) continue;
      try {
        msg.respond(Empty, { headers: working });
      } catch {
        // connection closed (shutdown past its deadline): nothing left to tell the caller
      }
    }
  }, HEARTBEAT_MS);
  heartbeats.unref();
  for (const binding of bindings) {
    const endpoint = service.addEndpoint(binding.op.subject.replace(/\./g, "_"), { subject: binding.op.subject });
    endpoints.push(endpoint);
    const c: EndpointCounters = { requests: 0, errors: 0, total_ms: 0, in_flight: 0 };
    counters.set(binding.op.subject, c);
    void (async () => {
      for await (const msg of endpoint) {
        inFlight++;
        c.requests++;
        c.in_flight++;
        const started = performance.now();
        active.set(msg, started);
        // The reply goes out synchronously in reply(): no heartbeat after it.
        void dispatch(msg, binding, log, troubles, () => active.delete(msg))
          .then((failure) => {
            if (failure !== null) c.errors++;
          })
          .finally(() => {
            inFlight--;
            c.in_flight--;
            c.total_ms += performance.now() - started;
          });
      }
    })();
  }
  return {
    service,
    inFlight: () => inFlight,
    stop: async () => {
      // service.stop() drains the endpoint subscriptions: no new requests, and those already sent
      // to us are still delivered into the iterators. Let the loops take them before ending them.
      await service.stop();
      const deadline = Date.now() + 5000;
      while (endpoints.some((e) => e.getPending() > 0) && Date.now() < deadline) await Bun.sleep(5);
      for (const endpoint of endpoints) endpoint.stop();
      // Heartbeats go on for the requests still running; the timer is unref'd and dies with the process.
    },
  };
}

interface EndpointCounters {
  requests: number;
  errors: number;
  total_ms: number;
  in_flight: number;
}

/**
 * Handles one request with exactly one reply, in a server span while tracing is on; resolves null when it
 * succeeded, else the code of the error it answered. Never rejects.
 */
function dispatch(
  msg: ServiceMsg,
  binding: Binding,
  log: Logger,
  troubles: Troubles,
  onReplied: () => void,
): Promise<string | null> {
  const requestId = msg.headers?.get(HEADER_REQUEST_ID) || crypto.randomUUID();
  const parent = readTrace(msg.headers);
  const subject = binding.op.subject;
  const reqLog = log.child(
    parent ? { request_id: requestId, trace_id: parent.traceId, subject } : { request_id: requestId, subject },
  );
  const t = tracer();
  if (t === null) return handle(msg, binding, reqLog, troubles, onReplied, requestId, parent);
  const span = t.start(subject, {
    kind: "server",
    parent,
    attributes: { "rpc.system": "nats", "rpc.method": subject },
  });
  return withSpan(span, () => handle(msg, binding, reqLog, troubles, onReplied, requestId, span.ids)).then(
    (failure) => {
      if (failure !== null) span.fail(failure);
      span.end();
      return failure;
    },
  );
}

/** The request's handling: null once the success reply is sent, else the code of the error it answered. */
async function handle(
  msg: ServiceMsg,
  binding: Binding,
  reqLog: Logger,
  troubles: Troubles,
  onReplied: () => void,
  requestId: string,
  trace: TraceIds | null,
): Promise<string | null> {
  let replied = false;
  let answered: string | null = null;
  const reply = (send: () => void): boolean => {
    if (replied) return false;
    replied = true;
    onReplied();
    send();
    return true;
  };
  const replyError = (error: ServiceError) => {
    answered = error.code;
    // respondError adds the micro-service error headers, so $SRV STATS count errors.
    reply(() => msg.respondError(httpStatusOf(error.code), error.code, encodeJson({ error: error.toBody() })));
  };
  const budget = readBudget(msg.headers);
  const started = performance.now();
  const expiry =
    budget !== null && troubles.watched
      ? setTimeout(
          () => {
            if (!troubles.since(started - budget - RECENT_TROUBLE_MS)) return;
            replyError(
              new ServiceError(
                "SERVICE_UNAVAILABLE",
                "A dependency is recovering and did not answer in time; the change may or may not have been applied",
              ),
            );
            reqLog.warn("answered 503 at the caller's deadline: a dependency is recovering", { budget_ms: budget });
          },
          Math.max(0, budget - BUDGET_MARGIN_MS),
        )
      : undefined;
  try {
    let raw: unknown;
    try {
      raw = decodeJson(msg.data);
    } catch {
      throw new ServiceError("VALIDATION_ERROR", "Malformed JSON", { field: "body", constraint: "json" });
    }
    const input = binding.op.validate(raw ?? {});
    const ctx: HandlerContext = { caller: readCaller(msg.headers), requestId, log: reqLog, trace };
    const keyClaim = readKeyClaim(msg.headers);
    if (keyClaim) ctx.keyClaim = keyClaim;
    const data = await binding.handler(input, ctx);
    // Answered already (503 at the caller's deadline): the late success goes nowhere.
    return reply(() => msg.respond(encodeReply(data))) ? null : answered;
  } catch (err) {
    const error = isDependencyDown(err)
      ? new ServiceError("SERVICE_UNAVAILABLE", "A dependency is unavailable, retry shortly")
      : isStorageFull(err)
        ? new ServiceError("STORAGE_FULL", "Storage is full: the write was refused and nothing was changed")
        : toServiceError(err);
    if (!(err instanceof ServiceError))
      reqLog[error.code === "INTERNAL_ERROR" ? "error" : "warn"]("handler failed", errorFields(err));
    if (error.code === "SERVICE_UNAVAILABLE" || error.code === "TIMEOUT") troubles.note();
    if (!replied) replyError(error);
    return answered ?? error.code;
  } finally {
    clearTimeout(expiry);
  }
}
