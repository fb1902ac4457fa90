import type { GatewayDeps } from "../deps";
import { apiSurface, type Exchange, exchange } from "../http/exchange/exchange";
import { serveExport } from "./export";
import { serveImport } from "./import";
import { serveErase } from "./erase";

/**
 * The routes whose body or answer is a stream, or which outlast the one-call REST adapter (rest/handle.ts): the
 * same exchange (guard, `admin` scope, envelope, usage and metrics), their own run.
 */
export const portabilityRoutes: {
  method: "GET" | "POST" | "DELETE";
  path: string;
  run: (ex: Exchange) => Promise<Response>;
}[] = [
  { method: "GET", path: "/export", run: serveExport },
  { method: "POST", path: "/import", run: serveImport },
  { method: "DELETE", path: "/tenant", run: serveErase },
];

/** One streamed route's handler, built once. */
export function portabilityHandler(deps: GatewayDeps, route: (typeof portabilityRoutes)[number]) {
  const surface = apiSurface(route.method, route.path, "admin");
  return (request: Request) => exchange(deps, surface, request, route.run, undefined);
}
