import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { createMemory, ids, ok, tenant, UNKNOWN_ID, type MemoryOut } from "./memory-helpers";
import { expectError } from "../envelope-helpers";

/**
 * GET /v1/memories: every filter, alone and combined, both sorts and orders, against a model of the
 * data computed here; totals must be exact for every combination.
 */
let api: ApiClient;
let all: MemoryOut[] = [];
let tagA: string;
let tagB: string;
let entity: string;

const TIERS = ["short", "medium", "long"];
const TYPES = ["text", "conversation", "document", "event", "fact"];
const NATURES = ["episodic", "semantic"];
const N = 16;
const tagged: Record<string, Set<string>> = {};
const linked = new Set<string>();

beforeAll(async () => {
  api = (await tenant()).api;
  tagA = (await ok(api.post("/v1/tags", { name: "alpha" }))).id;
  tagB = (await ok(api.post("/v1/tags", { name: "beta" }))).id;
  tagged[tagA] = new Set();
  tagged[tagB] = new Set();
  const made: MemoryOut[] = [];
  for (let i = 0; i < N; i++) {
    const m = await createMemory(api, {
      content: `memory ${i}`,
      tier: TIERS[i % 3],
      content_type: TYPES[i % 5],
      memory_nature: NATURES[i % 2],
      ...(i >= 5 ? { parent_memory_id: made[i % 5]!.id } : {}),
      ...(i % 4 === 1 ? { external_id: `ext-${i}` } : {}),
    });
    made.push(m);
    const tags = [...(i % 2 === 0 ? [tagA] : []), ...(i % 3 === 0 ? [tagB] : [])];
    if (tags.length) await ok(api.post(`/v1/memories/${m.id}/tags`, { tag_ids: tags }));
    for (const t of tags) tagged[t]!.add(m.id);
    if (i % 4 === 0) linked.add(m.id);
    if (i % 3 === 1) await Bun.sleep(2); // a mix of equal and distinct timestamps
  }
  entity = (await ok(api.post("/v1/entities", { name: "Ada", type: "person", memory_ids: [...linked] }))).id;
  // Reorder updated_at against created_at.
  for (const i of [3, 12, 0, 7]) {
    await Bun.sleep(2);
    await ok(api.patch(`/v1/memories/${made[i]!.id}`, { content: `memory ${i} (edited)` }));
  }
  all = await Promise.all(made.map((m) => ok(api.get(`/v1/memories/${m.id}`))));
});

type Filter = Record<string, string | boolean | string[]>;

/** The model: filter, then order by (sort field, id) like the sorted-set indexes do. */
function expected(filter: Filter, sort: "created_at" | "updated_at", order: "asc" | "desc"): string[] {
  const ms = (s: string) => Date.parse(s);
  const rows = all.filter(
    (m) =>
      (filter.tier === undefined || m.tier === filter.tier) &&
      (filter.content_type === undefined || m.content_type === filter.content_type) &&
      (filter.memory_nature === undefined || m.memory_nature === filter.memory_nature) &&
      (filter.parent_memory_id === undefined || m.parent_memory_id === filter.parent_memory_id) &&
      (filter.root === undefined || (m.parent_memory_id === null) === filter.root) &&
      (filter.external_id === undefined || m.external_id === filter.external_id) &&
      (filter.entity_id === undefined || (filter.entity_id === entity && linked.has(m.id))) &&
      (filter.tag_id === undefined || (filter.tag_id as string[]).every((t) => tagged[t]?.has(m.id))) &&
      (filter.created_after === undefined || ms(m.created_at) > ms(filter.created_after as string)) &&
      (filter.created_before === undefined || ms(m.created_at) < ms(filter.created_before as string)),
  );
  rows.sort((a, b) => ms(a[sort]) - ms(b[sort]) || (a.id < b.id ? -1 : 1));
  if (order === "desc") rows.reverse();
  return rows.map((m) => m.id);
}

function query(filter: Filter, extra: Record<string, string | number> = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  for (const [k, v] of Object.entries(extra)) p.append(k, String(v));
  return `/v1/memories?${p}`;
}

describe("GET /v1/memories filters", () => {
  test("the model sees the intended data (sanity)", () => {
    expect(all.length).toBe(N);
    expect(all.filter((m) => m.parent_memory_id === null).length).toBe(5);
    expect(all.every((m) => (m.entity_ids.length === 1) === linked.has(m.id))).toBe(true);
    expect(all.filter((m) => m.tags.some((t) => t.id === tagA)).length).toBe(tagged[tagA]!.size);
  });

  const filters = (): Filter[] => {
    const c = (i: number) => all[i]!.created_at;
    return [
      {},
      { tier: "short" },
      { content_type: "fact" },
      { memory_nature: "semantic" },
      { parent_memory_id: all[0]!.id },
      { parent_memory_id: all[15]!.id },
      { root: true },
      { root: false },
      { tag_id: [tagA] },
      { tag_id: [tagB] },
      { tag_id: [tagA, tagB] },
      { tag_id: [UNKNOWN_ID] },
      { entity_id: entity },
      { entity_id: UNKNOWN_ID },
      { external_id: "ext-5" },
      { external_id: "ext-5", tier: "short" },
      { external_id: "ext-5", root: false, tag_id: [tagB] },
      { external_id: "no-such" },
      { created_after: c(4) },
      { created_before: c(10) },
      { created_after: c(2), created_before: c(13) },
      { created_after: c(10), created_before: c(2) },
      { tier: "medium", tag_id: [tagA] },
      { root: true, tag_id: [tagA] },
      { root: false, memory_nature: "episodic" },
      { root: false, created_after: c(6) },
      { parent_memory_id: all[1]!.id, content_type: "conversation" },
      { entity_id: entity, tier: "short", created_before: c(14) },
      { tag_id: [tagA], memory_nature: "episodic", content_type: "text", tier: "short" },
      { root: true, parent_memory_id: all[0]!.id },
    ];
  };

  test("every filter combination, both sorts and orders: exact items and exact total", async () => {
    let checked = 0;
    for (const filter of filters()) {
      for (const sort of ["created_at", "updated_at"] as const) {
        for (const order of ["asc", "desc"] as const) {
          const res = await api.get(query(filter, { sort, order, limit: 100 }));
          expect(res.status).toBe(200);
          const want = expected(filter, sort, order);
          expect({ filter, sort, order, ids: ids(res.body.data), total: res.body.meta.total }).toEqual({
            filter,
            sort,
            order,
            ids: want,
            total: want.length,
          });
          checked++;
        }
      }
    }
    expect(checked).toBe(filters().length * 4);
  });

  test("pages of every filter add up to the whole list, with has_more and the exact total", async () => {
    for (const filter of filters()) {
      for (const sort of ["created_at", "updated_at"] as const) {
        const want = expected(filter, sort, "desc");
        const got: string[] = [];
        for (let offset = 0; offset < want.length + 3; offset += 3) {
          const res = await api.get(query(filter, { sort, limit: 3, offset }));
          expect(res.body.meta).toMatchObject({
            total: want.length,
            limit: 3,
            offset,
            has_more: offset + 3 < want.length,
          });
          got.push(...ids(res.body.data));
        }
        expect(got).toEqual(want);
      }
    }
  });

  test("default order is newest first by created_at; every item is a full memory", async () => {
    const res = await api.get("/v1/memories");
    expect(ids(res.body.data)).toEqual(expected({}, "created_at", "desc"));
    expect(res.body.meta).toMatchObject({ total: N, limit: 50, offset: 0, has_more: false });
    const byId = new Map(all.map((m) => [m.id, m]));
    for (const m of res.body.data) expect(m).toEqual(byId.get(m.id)!);
  });

  test("an offset past the end gives an empty page with the total", async () => {
    const res = await api.get("/v1/memories?offset=1000");
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ total: N, offset: 1000, has_more: false });
  });
});

describe("GET /v1/memories validation", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["limit=0", "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
    ["limit=101", "limit must be <= 100", { field: "limit", constraint: "maximum", max: 100 }],
    ["limit=1.5", "limit must be an integer", { field: "limit", constraint: "type" }],
    ["limit=ten", "limit must be an integer", { field: "limit", constraint: "type" }],
    ["limit=", "limit must be an integer", { field: "limit", constraint: "type" }],
    ["offset=-1", "offset must be >= 0", { field: "offset", constraint: "minimum", min: 0 }],
    ["offset=0.5", "offset must be an integer", { field: "offset", constraint: "type" }],
    [
      "sort=name",
      "sort must be one of created_at, updated_at, occurred_at",
      { field: "sort", constraint: "enum", allowed: ["created_at", "updated_at", "occurred_at"] },
    ],
    ["order=up", "order must be one of asc, desc", { field: "order", constraint: "enum", allowed: ["asc", "desc"] }],
    [
      "tier=huge",
      "tier must be one of short, medium, long",
      { field: "tier", constraint: "enum", allowed: ["short", "medium", "long"] },
    ],
    [
      "content_type=blog",
      "content_type must be one of text, conversation, document, event, fact",
      { field: "content_type", constraint: "enum", allowed: TYPES },
    ],
    [
      "memory_nature=dream",
      "memory_nature must be one of episodic, semantic",
      { field: "memory_nature", constraint: "enum", allowed: NATURES },
    ],
    ["root=maybe", "root must be boolean", { field: "root", constraint: "type" }],
    [
      "parent_memory_id=nope",
      "parent_memory_id has an invalid format (expected uuid)",
      { field: "parent_memory_id", constraint: "format" },
    ],
    ["entity_id=nope", "entity_id has an invalid format (expected uuid)", { field: "entity_id", constraint: "format" }],
    ["tag_id=nope", "tag_id.0 has an invalid format (expected uuid)", { field: "tag_id.0", constraint: "format" }],
    [
      `tag_id=${UNKNOWN_ID}&tag_id=bad`,
      "tag_id.1 has an invalid format (expected uuid)",
      { field: "tag_id.1", constraint: "format" },
    ],
    [
      "created_after=yesterday",
      "created_after has an invalid format (expected date-time)",
      { field: "created_after", constraint: "format" },
    ],
    [
      "created_before=2024-13-45T00:00:00Z",
      "created_before has an invalid format (expected date-time)",
      { field: "created_before", constraint: "format" },
    ],
    [
      `external_id=${"x".repeat(256)}`,
      "external_id must be at most 255 characters",
      { field: "external_id", constraint: "max_length", max: 255 },
    ],
    ["colour=red", "colour is not an accepted field", { field: "colour", constraint: "unknown_field" }],
  ];
  for (const [qs, message, details] of cases) {
    test(`${qs.slice(0, 60)} → 400`, async () => {
      expectError(await api.get(`/v1/memories?${qs}`), 400, "VALIDATION_ERROR", message, details);
    });
  }

  test("limit 1 and 100 are accepted; the default limit is 50", async () => {
    const t = (await tenant()).api;
    for (let i = 0; i < 55; i++) await createMemory(t, { content: `m${i}` });
    expect((await t.get("/v1/memories?limit=1")).body.meta).toMatchObject({ total: 55, limit: 1, has_more: true });
    expect((await t.get("/v1/memories?limit=100")).body.data.length).toBe(55);
    const page = await t.get("/v1/memories");
    expect(page.body.data.length).toBe(50);
    expect(page.body.meta).toMatchObject({ total: 55, limit: 50, offset: 0, has_more: true });
  });
});

describe("GET /v1/memories: large pages", () => {
  test(
    "a page over 8 KiB arrives whole, with every header, streamed in one chunk; " +
      "a small one keeps its Content-Length",
    async () => {
      const { api: own } = await tenant();
      const content = "Ünïcödé 🎉 — a long memory. ".repeat(40); // ~1.2 KB each
      const made: MemoryOut[] = [];
      for (let i = 0; i < 12; i++) made.push(await createMemory(own, { content: `${i} ${content}` }));
      const large = await own.get("/v1/memories?limit=12&sort=created_at&order=asc");
      expect(large.status).toBe(200);
      expect(large.body.data.map((m: MemoryOut) => m.content)).toEqual(made.map((m) => m.content));
      expect(large.body.meta).toMatchObject({ total: 12, limit: 12, offset: 0, has_more: false });
      for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"])
        expect(large.headers.get(h)).toBeTruthy();
      expect(large.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      // The large page goes out as one chunk (headers and body in one send; see gateway/http/envelope/envelope.ts).
      expect(large.headers.get("Transfer-Encoding")).toBe("chunked");
      const small = await own.get("/v1/memories?limit=1");
      expect(Number(small.headers.get("Content-Length"))).toBeGreaterThan(0);
      expect(small.body.data).toHaveLength(1);
    },
  );
});
