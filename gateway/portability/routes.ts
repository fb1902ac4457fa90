import type { GatewayDeps } from "../deps";
import { exportRoute } from "./export";
import { importRoute } from "./import";

/** The routes whose body or answer is a stream; rest/routes.ts holds the one-call ones. */
export const portabilityRoutes: {
  method: "GET" | "POST" | "DELETE";
  path: string;
  serve: (deps: GatewayDeps, request: Request) => Promise<Response>;
}[] = [
  { method: "GET", path: "/export", serve: exportRoute },
  { method: "POST", path: "/import", serve: importRoute },
];
