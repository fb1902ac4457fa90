import { fmt, median, medianOf, type LoadResult } from "./load";
import type { BenchSection } from "./sections";

const MEMORY_FIELDS =
  "id content contentType tier memoryNature parentMemoryId externalId metadata entityIds createdAt updatedAt " +
  "tags { id name color }";
const THREAD_QUERY =
  `query Thread($id: ID!) { memory(id: $id) { ${MEMORY_FIELDS} ` +
  `children(limit: 50, order: ASC) { total items { ${MEMORY_FIELDS} } } } }`;
const MEMORY_QUERY = `query Memory($id: ID!) { memory(id: $id) { ${MEMORY_FIELDS} } }`;

/** A closed loop of `concurrency` clients each repeating `op` for `durationS`: operations/s and latency percentiles. */
async function closedLoop(concurrency: number, durationS: number, op: () => Promise<boolean>): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + durationS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        if (!(await op())) errors++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p50: median(latencies),
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN,
    errors,
    requests: latencies.length,
  };
}

/**
 * (1) a thread (one root, 50 turns, their tags) read with one GraphQL query vs the REST
 * calls a client needs for the same data (GET the root + GET its children, in parallel); (2) the
 * GraphQL `memory(id)` query vs `GET /v1/memories/:id` (goal: >= 0.5× its throughput).
 */
export const graphqlSection: BenchSection = {
  name: "graphql",
  async run(ctx) {
    const base = ctx.stack.baseUrl;
    const auth = { Authorization: `Bearer ${ctx.tenant.key}` };
    const json = { ...auth, "Content-Type": "application/json" };
    const post = async (path: string, body: unknown) => {
      const r = await fetch(base + path, { method: "POST", headers: json, body: JSON.stringify(body) });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return ((await r.json()) as { data: { id: string } }).data;
    };
    const root = await post("/v1/memories", {
      content: "A conversation about the trip to Lisbon",
      tier: "long",
      content_type: "conversation",
    });
    const tags = [];
    for (const name of ["travel", "planning", "family"])
      tags.push(await post("/v1/tags", { name: `${name}-${root.id.slice(0, 4)}`, color: "#3366ff" }));
    for (let i = 0; i < 50; i++) {
      const turn = await post("/v1/memories", {
        content: `Turn ${i}: ${"we talked about flights, hotels and food. ".repeat(3)}`,
        parent_memory_id: root.id,
        tier: "short",
        metadata: { speaker: i % 2 ? "user" : "assistant", turn: i },
      });
      await post(`/v1/memories/${turn.id}/tags`, { tag_ids: [tags[i % 3]!.id, tags[(i + 1) % 3]!.id] });
    }

    // Both sides must return the same data, else the comparison means nothing.
    const gqlThread = async () => {
      const r = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ query: THREAD_QUERY, variables: { id: root.id } }),
      });
      return (
        r.status === 200 &&
        ((await r.json()) as { data?: { memory?: { children: { items: unknown[] } } } }).data?.memory?.children.items
          .length === 50
      );
    };
    const restThread = async () => {
      const [a, b] = await Promise.all([
        fetch(`${base}/v1/memories/${root.id}`, { headers: auth }),
        fetch(`${base}/v1/memories?parent_memory_id=${root.id}&limit=50&order=asc`, { headers: auth }),
      ]);
      const [, list] = await Promise.all([a.json(), b.json()]);
      return a.status === 200 && b.status === 200 && (list as { data: unknown[] }).data.length === 50;
    };
    if (!(await gqlThread()) || !(await restThread())) throw new Error("thread reads disagree");

    const loops = Math.min(ctx.connections, 16);
    const thread = { gql: [] as LoadResult[], rest: [] as LoadResult[] };
    for (let i = 0; i < ctx.runs; i++) {
      thread.gql.push(await closedLoop(loops, ctx.durationS, gqlThread));
      thread.rest.push(await closedLoop(loops, ctx.durationS, restThread));
    }
    const med = (rs: LoadResult[]): LoadResult => ({
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      errors: rs.reduce((a, r) => a + r.errors, 0),
      requests: 0,
    });
    const g = med(thread.gql);
    const r = med(thread.rest);
    console.log(`thread (root + 50 turns + tags), ${loops} clients in a closed loop, operations/s:`);
    console.log(`  GraphQL: 1 request                 ${fmt(g).replace("req/s", "ops/s")}`);
    console.log(
      `  REST: 2 requests (in parallel)     ${fmt(r).replace("req/s", "ops/s")}   ` +
        `GraphQL/REST ${(g.rps / r.rps).toFixed(3)}`,
    );

    const spec = { connections: ctx.connections, durationS: ctx.durationS };
    const rest = await medianOf(ctx.runs, { ...spec, url: `${base}/v1/memories/${root.id}`, headers: auth });
    const body = JSON.stringify({ query: MEMORY_QUERY, variables: { id: root.id } });
    const gql = await medianOf(ctx.runs, { ...spec, url: `${base}/graphql`, method: "POST", headers: json, body });
    console.log(`GET /v1/memories/:id                 ${fmt(rest)}`);
    console.log(
      `GraphQL memory(id)                   ${fmt(gql)}   ` +
        `GraphQL/REST ${(gql.rps / rest.rps).toFixed(3)} (goal >= 0.5)`,
    );
  },
};
