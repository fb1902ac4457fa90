import { eraseTenant } from "../../services/contract/erase";
import { coerceQuery } from "../../services/contract/validation";
import { rawData } from "../../services/kit/wire";
import { rawSuccessResponse, roundMs } from "../http/envelope/envelope";
import { parseQuery } from "../http/body/query";
import { type Exchange, jsonBody } from "../http/exchange/exchange";
import { idempotencyKeyOf, keyRefusal } from "../http/idempotency/key";

/** An erase runs as long as the tenant's data takes to delete; past this the client asks again and it resumes. */
const ERASE_TIMEOUT_MS = 10 * 60_000;

/**
 * `DELETE /v1/tenant`: `tenant.erase`, its input as a JSON body (`{"confirm": "<tenant>:<env>"}`) or the query.
 * Its own route rather than the REST adapter's: a DELETE there takes the query only, and an erase outlasts the
 * adapter's timeout.
 */
export async function serveErase(ex: Exchange): Promise<Response> {
  const { deps, request } = ex;
  const refusal = idempotencyKeyOf(request) === null ? null : keyRefusal(eraseTenant);
  if (refusal) throw refusal;
  const hasBody =
    request.body !== null &&
    (request.headers.has("transfer-encoding") || Number(request.headers.get("content-length") ?? 0) > 0);
  const input = hasBody ? await jsonBody(ex) : coerceQuery(eraseTenant.input, parseQuery(request.url));
  const ctx = { requestId: ex.requestId, caller: ex.caller, trace: ex.trace };
  const reply = await deps.bus.callRaw(eraseTenant, input as never, ctx, { timeoutMs: ERASE_TIMEOUT_MS });
  const data = rawData(reply);
  if (!data) throw new Error("tenant.erase answered something other than data");
  const erased = JSON.parse(new TextDecoder().decode(data)) as { tenant_id: string; environment: string };
  await deps.idempotency.erase(erased.tenant_id, erased.environment);
  const meta = { request_id: ex.requestId, latency_ms: roundMs(performance.now() - ex.started) };
  return rawSuccessResponse(data, meta, ex.headers);
}
