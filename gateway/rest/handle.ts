import { coerceQuery, isUuid, unknownFieldError } from "../../services/contract/validation";
import { ServiceError } from "../../services/contract/errors";
import { decodeJson, rawData, rawPage } from "../../services/kit/wire";
import { parseQuery } from "../http/body/query";
import { listMeta, rawSuccessResponse, roundMs } from "../http/envelope/envelope";
import { apiSurface, type Exchange, exchange, jsonBody } from "../http/exchange/exchange";
import { underIdempotencyKey } from "../http/idempotency/keyed";
import { fingerprintOf, idempotencyKeyOf, keyRefusal } from "../http/idempotency/key";
import type { GatewayDeps } from "../deps";
import { pathFieldsOf, type RestRoute } from "./route";

type Params = Record<string, string>;

/**
 * The REST adapter of one route, built once: the exchange (http/exchange) runs the frame; this translates HTTP to
 * the operation's input and its one NATS call's answer to the envelope. Always one Response.
 */
export function restHandler(deps: GatewayDeps, route: RestRoute) {
  const surface = apiSurface(route.method, route.path, route.op.scope);
  const run = (ex: Exchange, params: Params) => runRoute(ex, route, params);
  return ({ request, params }: { request: Request; params: Params }) => exchange(deps, surface, request, run, params);
}

/** Path params, input, the Idempotency-Key (a write's), then one NATS call. */
async function runRoute(ex: Exchange, route: RestRoute, params: Params): Promise<Response> {
  for (const [name, param] of Object.entries(route.params ?? {})) {
    if (!isUuid(params[name])) throw new ServiceError("NOT_FOUND", param.notFound);
  }
  const key = route.method === "GET" ? null : idempotencyKeyOf(ex.request);
  const refusal = key === null ? null : keyRefusal(route.op);
  if (refusal) throw refusal;
  const raw = await operationInput(ex, route, params);
  const { requestId, caller, trace } = ex;
  // The common request, awaited here: no further async step on its way.
  if (key === null) return answerOf(ex, route, await ex.deps.bus.callRaw(route.op, raw, { requestId, caller, trace }));
  const fingerprint = fingerprintOf(`${route.method} ${route.path}`, raw);
  const write = { key, fingerprint, claimsItself: route.op.claimsIdempotencyKey };
  return underIdempotencyKey(ex, write, async (keyClaim) =>
    answerOf(ex, route, await ex.deps.bus.callRaw(route.op, raw, { requestId, caller, keyClaim, trace })),
  );
}

/** The envelope of the operation's answer; the service's JSON goes out as it came (wire.ts), unparsed. */
function answerOf(ex: Exchange, route: RestRoute, reply: Uint8Array): Response {
  const { requestId, headers } = ex;
  const latency = roundMs(performance.now() - ex.started);
  if (route.list) {
    const page = rawPage(reply);
    if (!page) throw new Error(`${route.op.subject} answered something other than a page`);
    return rawSuccessResponse(page.items, listMeta(page, requestId, latency), headers);
  }
  // `total` is counted from the parsed data; the data itself still goes out as it came.
  const total = route.total ? { total: route.total((decodeJson(reply) as { data: unknown }).data) } : {};
  return rawSuccessResponse(rawData(reply)!, { request_id: requestId, latency_ms: latency, ...total }, headers);
}

/**
 * The operation's input: the body (POST, PATCH) or the query (GET, DELETE), plus the path params. The
 * path alone names the resource: a body or query field that a path param fills is refused, like any
 * field the route does not accept, rather than silently overridden.
 */
async function operationInput(ex: Exchange, route: RestRoute, params: Params) {
  const sent =
    route.method === "POST" || route.method === "PATCH"
      ? await jsonBody(ex)
      : (coerceQuery(route.op.input, parseQuery(ex.request.url)) as Record<string, unknown>);
  const fromPath: Record<string, string> = {};
  for (const [name, field] of Object.entries(pathFieldsOf(route))) {
    if (Object.hasOwn(sent, field)) throw unknownFieldError(field);
    fromPath[field] = params[name]!;
  }
  return { ...sent, ...fromPath };
}
