import { badCounts, leaks } from "./answer-checks";
import { PAGE, WALK } from "./graphql-calls";
import type { Case } from "./outcome";
import type { KindWorld } from "./seed";
import { outsideIds, snapshot } from "./snapshot";

/**
 * The reads that name nothing, by a token of A: every list, search, context and resource list of the tenant.
 * Each answers (200, no error), shows none of B's memories, and a list of memories counts exactly A's: its
 * `total` is the number of memories inside the restriction, whatever B holds.
 */
const READS: { caseName: string; request: unknown; total?: (body: any) => number }[] = [
  {
    caseName: "GET /v1/memories",
    request: { method: "GET", path: "/v1/memories?limit=100" },
    total: (b) => b.meta.total,
  },
  { caseName: "GET /v1/memories", request: { method: "GET", path: "/v1/memories?limit=100&root=false" } },
  { caseName: "POST /v1/search", request: { method: "POST", path: "/v1/search", body: { query: "*", limit: 100 } } },
  { caseName: "POST /v1/search", request: { method: "POST", path: "/v1/search", body: { query: "tea", limit: 100 } } },
  {
    caseName: "POST /v1/context",
    request: { method: "POST", path: "/v1/context", body: { query: "tea", neighbors: 5, limit: 50 } },
  },
  { caseName: "GET /v1/tags", request: { method: "GET", path: "/v1/tags?limit=100" } },
  { caseName: "GET /v1/entities", request: { method: "GET", path: "/v1/entities?limit=100" } },
  {
    caseName: "Query.memories",
    request: { query: `{ memories(limit: 100) { ${PAGE} } }` },
    total: (b) => b.data.memories.total,
  },
  {
    caseName: "Query.search",
    request: { query: `{ search(input: { query: "tea", limit: 100 }) { results { memory { ${WALK} } } } }` },
  },
  {
    caseName: "Query.context",
    request: {
      query: `{ context(input: { query: "tea", neighbors: 5 }) { context memories { memory { ${WALK} } } } }`,
    },
  },
  { caseName: "tool list_memories", request: { limit: 100 }, total: (b) => b.total },
  { caseName: "tool recall", request: { query: "*", limit: 100 } },
  { caseName: "tool get_context", request: { query: "tea", neighbors: 5 } },
  { caseName: "resources/list", request: {} },
];

/** Failures of the unfiltered reads of A's token, one line each. */
export async function unfilteredReads(w: KindWorld, cases: Case[]): Promise<string[]> {
  const out: string[] = [];
  await w.fixtures();
  const s = await snapshot(w.api);
  const outside = outsideIds(w, s);
  const inside = s.memories.size - outside.length;
  for (const read of READS) {
    const c = cases.find((x) => x.name === read.caseName);
    if (!c) {
      out.push(`${read.caseName}: no such operation`);
      continue;
    }
    const o = await c.send(w.tokenA, read.request);
    const where = `${w.kind} token, ${c.name} ${JSON.stringify(read.request).slice(0, 80)}`;
    if (o.code !== "OK") out.push(`${where}: answered ${o.status} ${o.code} ${o.message}`);
    for (const p of [...leaks(o, "", outside), ...badCounts(w, s, o.body)]) out.push(`${where}: ${p}`);
    const total = read.total && o.code === "OK" ? read.total(o.body) : undefined;
    if (total !== undefined && total !== inside) out.push(`${where}: total ${total}, A's memories ${inside}`);
  }
  return out;
}
