import { ErrorCode as NatsErrorCode, type NatsConnection, type NatsError } from "nats";
import type { Caller, InputOf, Operation, OutputOf } from "../contract/op";
import { ServiceError, type ErrorBody } from "../contract/errors";
import { callHeaders, decodeJson, encodeJson } from "./wire";

export interface CallContext {
  requestId: string;
  caller?: Caller | null;
}

export type CallObserver = (subject: string, ms: number, outcome: "ok" | "error" | "unavailable" | "timeout") => void;

export interface Bus {
  call<Op extends Operation>(op: Op, input: InputOf<Op>, ctx: CallContext, opts?: { timeoutMs?: number }): Promise<OutputOf<Op>>;
}

/**
 * Request-reply client for contract operations. Validates input before it leaves (same schema the
 * service checks), and turns transport failures into domain errors: no responders → 503, timeout → 504.
 */
export function createBus(nc: NatsConnection, defaults: { timeoutMs: number; observe?: CallObserver }): Bus {
  return {
    async call(op, input, ctx, opts) {
      const payload = op.validate(input);
      const started = performance.now();
      const observe = (outcome: Parameters<CallObserver>[2]) => defaults.observe?.(op.subject, performance.now() - started, outcome);
      let reply;
      try {
        reply = await nc.request(op.subject, encodeJson(payload), {
          timeout: opts?.timeoutMs ?? defaults.timeoutMs,
          headers: callHeaders(ctx.requestId, ctx.caller),
        });
      } catch (err) {
        const code = (err as NatsError).code;
        if (code === NatsErrorCode.Timeout) {
          observe("timeout");
          throw new ServiceError("TIMEOUT", "The service did not answer in time");
        }
        observe("unavailable");
        throw new ServiceError("SERVICE_UNAVAILABLE", "The service is unavailable, retry shortly");
      }
      const body = decodeJson(reply.data) as { data?: unknown; error?: ErrorBody } | undefined;
      if (body?.error) {
        observe("error");
        throw ServiceError.fromBody(body.error);
      }
      observe("ok");
      return body?.data as OutputOf<typeof op>;
    },
  };
}
