import { Elysia } from "elysia";
import { ServiceError } from "../../services/contract/errors";
import { errorFields } from "../../services/kit/log";
import type { GatewayDeps } from "../deps";
import { settleConnection } from "../http/body/body";
import { errorResponse, roundMs } from "../http/envelope/envelope";
import { cameOverTls, clientAddressOf } from "../http/exchange/forwarded";
import { requestIdOf } from "../http/exchange/request-id";
import { clearedSessionCookie, sessionCookie, sessionIdOf } from "./cookie";
import type { Outcome } from "./sessions";

export const SESSION_PATH = "/dashboard/api/session";

/** Session answers are never stored by a browser or proxy: they hold the CSRF token. */
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * POST, GET and DELETE /dashboard/api/session (docs/api.md): the dashboard's sign-in, page-load check and
 * sign-out. Answers use the REST envelope; usage is accounted to the key as for any API request.
 */
export function sessionRoutes(deps: GatewayDeps) {
  const { sessions } = deps;
  const trustProxy = deps.config.TRUST_PROXY;

  /** Runs one operation and turns its outcome (or a ServiceError it threw) into the response. */
  async function respond<T>(
    request: Request,
    route: string,
    work: (requestId: string) => Promise<Outcome<T>>,
    answer: (value: T, headers: Headers, meta: object) => Response,
  ): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const secure = cameOverTls(request, trustProxy);
    let outcome: Outcome<T>;
    try {
      outcome = await work(requestId);
    } catch (err) {
      if (!(err instanceof ServiceError))
        deps.log.error("unexpected session error", { request_id: requestId, ...errorFields(err) });
      const error =
        err instanceof ServiceError ? err : new ServiceError("INTERNAL_ERROR", "An unexpected error occurred");
      return settleConnection(request, errorResponse(error, requestId, NO_STORE));
    }
    let res: Response;
    if (outcome.ok) {
      const headers = new Headers({ ...outcome.headers, ...NO_STORE, "X-Request-Id": requestId });
      res = answer(outcome.value, headers, { request_id: requestId, latency_ms: roundMs(performance.now() - started) });
    } else {
      res = errorResponse(outcome.error, requestId, { ...outcome.headers, ...NO_STORE });
      if (outcome.clearCookie) res.headers.append("Set-Cookie", clearedSessionCookie(secure));
    }
    const caller = outcome.identity?.caller;
    if (caller) deps.usage.record(caller, route, res.status);
    return settleConnection(request, res);
  }

  const json = (data: unknown, headers: Headers, meta: object) => {
    headers.set("Content-Type", "application/json; charset=utf-8");
    return new Response(JSON.stringify({ data, meta }), { status: 200, headers });
  };

  return new Elysia()
    .post(
      SESSION_PATH,
      ({ request, server }) => {
        const address = clientAddressOf(request, server?.requestIP(request)?.address, trustProxy);
        return respond(
          request,
          `POST ${SESSION_PATH}`,
          (requestId) => sessions.signIn(request, address, requestId),
          ({ id, view }, headers, meta) => {
            headers.append("Set-Cookie", sessionCookie(id, cameOverTls(request, trustProxy)));
            return json(view, headers, meta);
          },
        );
      },
      { parse: "none" },
    )
    .get(SESSION_PATH, ({ request }) =>
      respond(request, `GET ${SESSION_PATH}`, (requestId) => sessions.current(sessionIdOf(request), requestId), json),
    )
    .delete(
      SESSION_PATH,
      ({ request }) =>
        respond(
          request,
          `DELETE ${SESSION_PATH}`,
          () => sessions.end(request, sessionIdOf(request)),
          (_, headers, meta) => {
            headers.append("Set-Cookie", clearedSessionCookie(cameOverTls(request, trustProxy)));
            return json({ ended: true }, headers, meta);
          },
        ),
      { parse: "none" },
    );
}
