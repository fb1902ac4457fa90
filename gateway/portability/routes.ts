import type { GatewayDeps } from "../deps";
import { exportRoute } from "./export";
import { importRoute } from "./import";
import { eraseRoute } from "./erase";

/** The routes whose body or answer is a stream; rest/routes.ts holds the one-call ones. */
export const portabilityRoutes: {
  method: "GET" | "POST" | "DELETE";
  path: string;
  serve: (deps: GatewayDeps, request: Request) => Promise<Response>;
}[] = [
  { method: "GET", path: "/export", serve: exportRoute },
  { method: "POST", path: "/import", serve: importRoute },
  { method: "DELETE", path: "/tenant", serve: eraseRoute },
];
