import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from "nats";
import type { Caller, InputOf, Operation, OutputOf } from "../contract/op";
import { ServiceError, type ErrorBody } from "../contract/errors";
import {
  callHeaders,
  decodeJson,
  encodeJson,
  HEADER_BUDGET,
  HEADER_WORKING,
  type KeyClaim,
  LOST_AFTER_MS,
  rawData,
} from "./wire";
import { activeSpan, codeOf, type Tracer, tracer } from "./tracing/tracer";
import type { TraceIds } from "./tracing/trace-context";

export interface CallContext {
  requestId: string;
  caller?: Caller | null;
  /** For an operation that claims the request's Idempotency-Key itself (Operation.claimsIdempotencyKey). */
  keyClaim?: KeyClaim;
  /**
   * The span the call belongs to when no span is active (tracing off: the request's ids, for the services' logs,
   * unless the gateway started the trace itself). While tracing is on the active span is the parent, and each
   * call is a client span of its own.
   */
  trace?: TraceIds | null;
}

/** One observation per attempt: `lost` = the replica that took it went silent (and a read was retried). */
export type CallOutcome = "ok" | "error" | "unavailable" | "timeout" | "lost";
export type CallObserver = (subject: string, ms: number, outcome: CallOutcome) => void;

export interface Bus {
  call<Op extends Operation>(
    op: Op,
    input: InputOf<Op>,
    ctx: CallContext,
    opts?: { timeoutMs?: number },
  ): Promise<OutputOf<Op>>;
  /** The same call, answering the success reply's bytes (`{"data":…}`, see wire.ts) unparsed. */
  callRaw<Op extends Operation>(
    op: Op,
    input: InputOf<Op>,
    ctx: CallContext,
    opts?: { timeoutMs?: number },
  ): Promise<Uint8Array>;
  /** False while the NATS connection is down (calls fail fast with 503 meanwhile). */
  connected(): boolean;
}

/** `unsent`: the request never reached a replica (NATS down, no responders), so it did not run. */
type Attempt = { msg: Msg } | { failure: Exclude<CallOutcome, "ok" | "error">; unsent?: boolean };

/**
 * Request-reply client for contract operations. Validates input before it leaves (same schema the
 * service checks), and turns transport failures into domain errors. The failure policy, in one place:
 *
 * - NATS connection down, or no responders          → 503 at once (never queued until a timeout);
 * - the replica that took the request went silent   → it died (no heartbeat for LOST_AFTER_MS):
 *     an operation declared `idempotent` (reads) is sent once more, to whichever replica is left;
 *     any other operation answers 503 "may or may not have been applied": a write whose fate is
 *     unknown is never replayed blindly (a create is not idempotent);
 * - a replica that is alive but slower than the timeout → 504 (retrying would only add load); one still waiting
 *   on a Redis in trouble answers 503 itself just before the timeout (serve.ts, HEADER_BUDGET).
 */
export function createBus(nc: NatsConnection, defaults: { timeoutMs: number; observe?: CallObserver }): Bus {
  // Our own reply mux (the one inside nc.request resolves on the first message, a heartbeat).
  const inbox = createInbox();
  const pending = new Map<string, (msg: Msg | null) => void>();
  let seq = 0;
  nc.subscribe(`${inbox}.*`, {
    callback: (_err, msg) => {
      if (msg) pending.get(msg.subject.slice(inbox.length + 1))?.(msg);
    },
  });

  let up = true;
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect") {
        up = false;
        // Replies to what is in flight cannot reach us any more: fail those now, not at their timeout.
        for (const settle of [...pending.values()]) settle(null);
      } else if (s.type === "reconnect") up = true;
    }
  })();
  const connected = () => up && !nc.isClosed();

  const attempt = (subject: string, data: Uint8Array, headers: MsgHdrs, timeoutMs: number): Promise<Attempt> => {
    if (!connected()) return Promise.resolve({ failure: "unavailable", unsent: true });
    return new Promise((resolve) => {
      const token = (++seq).toString(36);
      const finish = (a: Attempt) => {
        clearTimeout(deadline);
        clearTimeout(silence);
        pending.delete(token);
        resolve(a);
      };
      const deadline = setTimeout(() => finish({ failure: "timeout" }), timeoutMs);
      const silence = setTimeout(() => finish({ failure: "lost" }), LOST_AFTER_MS);
      pending.set(token, (msg) => {
        if (msg === null) return finish({ failure: "unavailable" });
        if (msg.headers?.has(HEADER_WORKING)) return void silence.refresh();
        // NATS' own no-responders notice: empty, status 503 (a service error reply always has a body).
        if (msg.data.length === 0 && msg.headers?.code === 503) return finish({ failure: "unavailable", unsent: true });
        finish({ msg });
      });
      headers.set(HEADER_BUDGET, String(Math.floor(timeoutMs)));
      try {
        nc.publish(subject, data, { reply: `${inbox}.${token}`, headers });
      } catch {
        finish({ failure: "unavailable", unsent: true });
      }
    });
  };

  /** One call, in a client span of its own while tracing is on. */
  function exchange(op: Operation, input: unknown, ctx: CallContext, opts?: { timeoutMs?: number }) {
    const t = tracer();
    if (t !== null) return sendInSpan(t, op, input, ctx, opts);
    return send(op, input, ctx, ctx.trace?.local ? null : ctx.trace, opts);
  }

  async function sendInSpan(
    t: Tracer,
    op: Operation,
    input: unknown,
    ctx: CallContext,
    opts?: { timeoutMs?: number },
  ): Promise<Uint8Array> {
    const attributes = { "rpc.system": "nats", "rpc.method": op.subject };
    const span = t.start(op.subject, { kind: "client", parent: activeSpan() ?? ctx.trace, attributes });
    try {
      return await send(op, input, ctx, span.ids, opts);
    } catch (err) {
      span.fail(codeOf(err));
      throw err;
    } finally {
      span.end();
    }
  }

  /** The request and its retry: the success reply's bytes, or the domain error it maps to (thrown). */
  async function send(
    op: Operation,
    input: unknown,
    ctx: CallContext,
    trace: TraceIds | null | undefined,
    opts?: { timeoutMs?: number },
  ): Promise<Uint8Array> {
    const payload = encodeJson(op.validate(input));
    const headers = callHeaders(ctx.requestId, ctx.caller, ctx.keyClaim, trace);
    const timeoutMs = opts?.timeoutMs ?? op.timeoutMs ?? defaults.timeoutMs;
    const started = performance.now();
    let result: Attempt;
    let t = started;
    for (let tries = 1; ; tries++) {
      t = performance.now();
      const remaining = timeoutMs - (t - started);
      result = remaining > 0 ? await attempt(op.subject, payload, headers, remaining) : { failure: "timeout" };
      if ("msg" in result) break;
      defaults.observe?.(op.subject, performance.now() - t, result.failure);
      if (!(result.failure === "lost" && op.idempotent && tries < 2)) break;
    }
    if ("failure" in result) throw failureError(result.failure, op.idempotent === true, result.unsent === true);
    const reply = result.msg.data;
    const succeeded = rawData(reply) !== null;
    defaults.observe?.(op.subject, performance.now() - t, succeeded ? "ok" : "error");
    if (succeeded) return reply;
    const body = decodeJson(reply) as { error?: ErrorBody } | undefined;
    throw body?.error
      ? ServiceError.fromBody(body.error)
      : new ServiceError("INTERNAL_ERROR", "The service sent a malformed reply");
  }

  return {
    connected,
    async call(op, input, ctx, opts) {
      return (decodeJson(await exchange(op, input, ctx, opts)) as { data: OutputOf<typeof op> }).data;
    },
    callRaw: exchange,
  };
}

function failureError(failure: Exclude<CallOutcome, "ok" | "error">, idempotent: boolean, unsent: boolean) {
  if (failure === "timeout") return new ServiceError("TIMEOUT", "The service did not answer in time");
  if (failure === "lost" && !idempotent)
    return new ServiceError(
      "SERVICE_UNAVAILABLE",
      "The service stopped before answering; the change may or may not have been applied",
    );
  const error = new ServiceError("SERVICE_UNAVAILABLE", "The service is unavailable, retry shortly");
  if (unsent) unsentErrors.add(error);
  return error;
}

const unsentErrors = new WeakSet<ServiceError>();

/** The bus's answer to a call that reached no replica (NATS down, no responders): the operation never ran. */
export const neverRan = (err: unknown): boolean => err instanceof ServiceError && unsentErrors.has(err);
