import { coerceQuery, isUuid, unknownFieldError } from "../../services/contract/validation";
import { ServiceError, toServiceError } from "../../services/contract/errors";
import { decodeJson, rawData, rawPage } from "../../services/kit/wire";
import { readJsonObject, settleConnection } from "../http/body/body";
import { parseQuery } from "../http/body/query";
import { errorResponse, listMeta, rawSuccessResponse, roundMs } from "../http/envelope/envelope";
import { requireScope } from "../http/exchange/guard";
import { requestIdOf } from "../http/exchange/request-id";
import type { GatewayDeps } from "../deps";
import { pathFieldsOf, type RestRoute } from "./route";
import { errorFields } from "../../services/kit/log";
import { neverRan } from "../../services/kit/bus";
import type { Claimed, Prepared } from "../http/idempotency/idempotency";
import { fingerprintOf, idempotencyKeyOf, keyRefusal } from "../http/idempotency/key";

/** Runs one REST request: guard → scope → input → one NATS call → envelope. Always one Response. */
export async function handleRest(
  deps: GatewayDeps,
  route: RestRoute,
  request: Request,
  params: Record<string, string>,
): Promise<Response> {
  return settleConnection(request, await answer(deps, route, request, params));
}

async function answer(deps: GatewayDeps, route: RestRoute, request: Request, params: Record<string, string>) {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const admission = await deps.guard.admit(request, requestId);
  let status = 200;
  try {
    if (!admission.ok) {
      const res = errorResponse(admission.error, requestId, admission.headers);
      status = res.status;
      return res;
    }
    const caller = admission.identity.caller;
    let claimed: Claimed | null = null;
    // Set for a write that claims its Idempotency-Key itself, until it has answered.
    let prepared: Prepared | null = null;
    /** Scope, input, the Idempotency-Key's claim, then one NATS call. */
    const respond = async () => {
      requireScope(admission.identity, route.op.scope);
      for (const [name, param] of Object.entries(route.params ?? {})) {
        if (!isUuid(params[name])) throw new ServiceError("NOT_FOUND", param.notFound);
      }
      const key = route.method === "GET" ? null : idempotencyKeyOf(request);
      const refusal = key === null ? null : keyRefusal(route.op);
      if (refusal) throw refusal;
      const raw = await operationInput(deps, route, request, params);
      if (key !== null) {
        const fingerprint = fingerprintOf(`${route.method} ${route.path}`, raw);
        if (route.op.claimsIdempotencyKey) {
          prepared = deps.idempotency.prepare(caller, key, fingerprint, requestId, admission.headers);
        } else {
          const claim = await deps.idempotency.claim(caller, key, fingerprint, requestId, admission.headers);
          if ("replay" in claim) return claim.replay;
          claimed = claim;
        }
      }
      // The service's JSON goes out as it came (wire.ts), unparsed.
      const reply = await deps.bus.callRaw(route.op, raw, { requestId, caller, keyClaim: prepared?.keyClaim });
      if (prepared) claimed = prepared.claimed;
      prepared = null;
      const latency = roundMs(performance.now() - started);
      if (route.list) {
        const page = rawPage(reply);
        if (!page) throw new Error(`${route.op.subject} answered something other than a page`);
        return rawSuccessResponse(page.items, listMeta(page, requestId, latency), admission.headers);
      }
      // `total` is counted from the parsed data; the data itself still goes out as it came.
      const total = route.total ? { total: route.total((decodeJson(reply) as { data: unknown }).data) } : {};
      return rawSuccessResponse(
        rawData(reply)!,
        { request_id: requestId, latency_ms: latency, ...total },
        admission.headers,
      );
    };
    let res: Response;
    let ran = true;
    try {
      res = await respond();
    } catch (err) {
      let error = toServiceError(err);
      if (!(err instanceof ServiceError))
        deps.log.error("unexpected gateway error", { request_id: requestId, ...errorFields(err) });
      ran = !refusedWhole(err);
      // The write refused or failed, so whether it claimed the key is for Redis to say: the key is claimed now
      // (or found this request's own), or it answers an earlier request's answer, 409 or 422.
      const refused = prepared as Prepared | null;
      if (refused) {
        try {
          const claim = await refused.afterRefusal();
          if ("replay" in claim) {
            status = claim.replay.status;
            return claim.replay;
          }
          claimed = claim;
        } catch (claimErr) {
          error = toServiceError(claimErr);
        }
      }
      res = errorResponse(error, requestId, admission.headers);
    }
    status = res.status;
    return claimed === null ? res : (claimed as Claimed).finish(res, ran);
  } finally {
    const template = `/v1${route.path}`;
    const caller = admission.identity?.caller;
    if (caller) deps.usage.record(caller, `${route.method} ${template}`, status);
    deps.metrics.observeHttp(route.method, template, status, (performance.now() - started) / 1000);
  }
}

/** An answer that says the write changed nothing: a retry with the same Idempotency-Key runs it again. */
const refusedWhole = (err: unknown) =>
  neverRan(err) ||
  (err instanceof ServiceError && ["STORAGE_FULL", "RATE_LIMITED", "IDEMPOTENCY_IN_FLIGHT"].includes(err.code));

/**
 * The operation's input: the body (POST, PATCH) or the query (GET, DELETE), plus the path params. The
 * path alone names the resource: a body or query field that a path param fills is refused, like any
 * field the route does not accept, rather than silently overridden.
 */
async function operationInput(deps: GatewayDeps, route: RestRoute, request: Request, params: Record<string, string>) {
  const sent =
    route.method === "POST" || route.method === "PATCH"
      ? await readJsonObject(request, deps.config.BODY_LIMIT_BYTES)
      : (coerceQuery(route.op.input, parseQuery(request.url)) as Record<string, unknown>);
  const fromPath: Record<string, string> = {};
  for (const [name, field] of Object.entries(pathFieldsOf(route))) {
    if (Object.hasOwn(sent, field)) throw unknownFieldError(field);
    fromPath[field] = params[name]!;
  }
  return { ...sent, ...fromPath };
}
