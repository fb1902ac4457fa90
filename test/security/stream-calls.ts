import type { Scope } from "../../services/contract/op";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";
import { portabilityRoutes } from "../../gateway/portability/routes";
import type { Ids } from "./ids";

/** One request to a streamed route: its body is text (NDJSON) or absent. */
export interface StreamRequest {
  method: string;
  path: string;
  body?: string;
}

/**
 * The streamed routes (gateway/portability/routes.ts): their scope (admin.ts takes it per route, so it is
 * written here) and a request built from ids. The test asserts one entry per route.
 */
export const STREAM_CALLS: Record<string, { scope: Scope; request: (ids: Ids) => StreamRequest }> = {
  "GET /export": { scope: "admin", request: () => ({ method: "GET", path: "/v1/export?limit=10" }) },
  "POST /import": {
    scope: "admin",
    request: (i) => ({
      method: "POST",
      path: "/v1/import",
      // A memory under the named parent, keeping the id of the named other memory when free.
      body: `${JSON.stringify(memoryRecordFixture({ id: i.other, parent_memory_id: i.memory, content: "x" }))}\n`,
    }),
  },
  "DELETE /tenant": {
    scope: "admin",
    request: (i) => ({ method: "DELETE", path: `/v1/tenant?tenant_id=${i.tenant}&environment=live` }),
  },
};

export const streamRouteNames = () => portabilityRoutes.map((r) => `${r.method} ${r.path}`);
