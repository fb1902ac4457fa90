import { apiClient } from "../api";
import { fmt, medianResult, runLoad, type LoadResult } from "./load";
import type { BenchSection } from "./sections";

/**
 * Browser tokens: `GET /v1/memories/:id` with the key itself, with an unrestricted token of that key (what
 * verification adds: an HMAC, cached), and with a token restricted by metadata (what enforcement adds). The
 * three alternate run by run, so the machine's drift falls on all alike; each figure is the median.
 */
export const tokensSection: BenchSection = {
  name: "tokens",
  async run(ctx) {
    const api = apiClient(ctx.stack.baseUrl, ctx.tenant.key);
    const id = (await api.post("/v1/memories", { content: "a token's read", metadata: { user_id: "u_1" } })).body.data
      .id;
    const mint = async (restrict?: Record<string, unknown>) =>
      (await api.post("/v1/tokens", { ttl_seconds: 86_400, ...(restrict ? { restrict } : {}) })).body.data
        .token as string;
    const credentials = {
      key: ctx.tenant.key,
      token: await mint(),
      restricted: await mint({ metadata: { user_id: "u_1" } }),
    };
    const results: Record<keyof typeof credentials, LoadResult[]> = { key: [], token: [], restricted: [] };
    for (let i = 0; i < ctx.runs; i++) {
      for (const [name, secret] of Object.entries(credentials) as [keyof typeof credentials, string][]) {
        results[name].push(
          await runLoad({
            url: `${ctx.stack.baseUrl}/v1/memories/${id}`,
            headers: { Authorization: `Bearer ${secret}` },
            connections: ctx.connections,
            durationS: ctx.durationS,
          }),
        );
      }
    }
    const key = medianResult(results.key);
    const token = medianResult(results.token);
    const restricted = medianResult(results.restricted);
    const cost = (r: LoadResult) => `throughput ${(((r.rps - key.rps) / key.rps) * 100).toFixed(1)}% vs the key`;
    console.log(`GET /v1/memories/:id, key            ${fmt(key)}`);
    console.log(`GET /v1/memories/:id, token          ${fmt(token)}   ${cost(token)} (target: at most 5% below)`);
    console.log(`GET /v1/memories/:id, restricted     ${fmt(restricted)}   ${cost(restricted)}`);
  },
};
