import { beforeAll, describe, expect, test } from "bun:test";
import { search } from "../search/search-helpers";
import { dataOf, exportLines, importText, modIds, portTenant, seed } from "./portability-helpers";
import { memoryRecordFixture } from "../../services/contract/portability.fixture";

let source: Awaited<ReturnType<typeof portTenant>>;
let exported: any[];

beforeAll(async () => {
  source = await portTenant();
  await seed(source.api);
  exported = await exportLines(source.baseUrl, source.key);
});

const ndjson = (lines: any[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

describe("GET /v1/export", () => {
  test("writes tags, then entities, then memories, each parent before its children, then an end line", () => {
    const types = dataOf(exported).map((r) => r.type);
    expect(types.filter((t) => t === "tag")).toHaveLength(2);
    expect(types.filter((t) => t === "entity")).toHaveLength(2);
    expect(types.filter((t) => t === "memory")).toHaveLength(9);
    expect(types.join(",")).toMatch(/^(tag,)+(entity,)+(memory,?)+$/);
    const seen = new Set<string>();
    for (const r of dataOf(exported).filter((x) => x.type === "memory")) {
      if (r.parent_memory_id) expect(seen.has(r.parent_memory_id)).toBe(true);
      seen.add(r.id);
    }
    expect(exported.at(-1)).toEqual({ type: "end", counts: { tags: 2, entities: 2, memories: 9 } });
    expect(exported.at(-2)).toEqual({ type: "cursor", cursor: null });
  });

  test("a thread's turns come in their occurred_at order, and links travel by name", () => {
    const memories = dataOf(exported).filter((r) => r.type === "memory");
    const turns = memories.filter((r) => r.content.startsWith("turn "));
    expect(turns.map((r) => r.content)).toEqual(["turn 0", "turn 1", "turn 2", "turn 3"]);
    expect(turns[0].tags).toEqual(["blue", "Red"]);
    expect(turns[0].entities).toEqual([{ type: "person", name: "Ann" }]);
  });

  test("pages of 2 carry cursors; resuming from any of them gives the rest of the same export", async () => {
    const paged = await exportLines(source.baseUrl, source.key, "?limit=2");
    expect(dataOf(paged)).toEqual(dataOf(exported));
    const cursors = paged.filter((l) => l.type === "cursor" && l.cursor !== null);
    expect(cursors.length).toBeGreaterThan(5);
    // Cut after the third page: the lines before its cursor, then a new export from it.
    const cut = paged.indexOf(cursors[2]);
    const before = dataOf(paged.slice(0, cut));
    const rest = await exportLines(source.baseUrl, source.key, `?cursor=${encodeURIComponent(cursors[2].cursor)}`);
    expect([...before, ...dataOf(rest)]).toEqual(dataOf(exported));
  });

  test("a cursor no export gave is a 400 with details; a key without admin is a 403", async () => {
    const res = await fetch(`${source.baseUrl}/v1/export?cursor=bm90LWEtY3Vyc29y`, {
      headers: { Authorization: `Bearer ${source.key}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.details).toMatchObject({ field: "cursor", constraint: "format" });
    const reader = await portTenantWithScopes(["memories:read"]);
    const forbidden = await fetch(`${source.baseUrl}/v1/export`, { headers: { Authorization: `Bearer ${reader}` } });
    expect(forbidden.status).toBe(403);
  });
});

async function portTenantWithScopes(scopes: string[]) {
  const { testStack } = await import("../harness");
  const { newTenant } = await import("../api");
  const stack = await testStack();
  return (await newTenant(stack.baseUrl, stack.adminKey, { scopes })).key;
}

describe("POST /v1/import", () => {
  test("round trip: export, import into a fresh tenant, export again: equal modulo ids", async () => {
    const target = await portTenant();
    const res = await importText(target.baseUrl, target.key, ndjson(exported));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      created: { tags: 2, entities: 2, memories: 9 },
      existing: { tags: 0, entities: 0, memories: 0 },
      failed: 0,
      errors: [],
    });
    const again = await exportLines(target.baseUrl, target.key);
    expect(modIds(again)).toEqual(modIds(exported));
    // Ids were free here, so they are kept.
    expect(
      dataOf(again)
        .filter((r) => r.type === "memory")
        .map((r) => r.id),
    ).toEqual(
      dataOf(exported)
        .filter((r) => r.type === "memory")
        .map((r) => r.id),
    );
  });

  test("imported memories are found by search at once, filtered by the tags they were imported with", async () => {
    const target = await portTenant();
    expect((await importText(target.baseUrl, target.key, ndjson(exported))).status).toBe(200);
    const tags = (await target.api.get("/v1/tags")).body.data as { id: string; name: string }[];
    const red = tags.find((t) => t.name === "Red")!;
    const found = (await search(target.api, { query: "turn", tags: [red.id], limit: 20 })).map((r) => r.content);
    const tagged = dataOf(exported).filter((r) => r.type === "memory" && r.tags.includes("Red"));
    expect(tagged.length).toBeGreaterThan(0);
    found.sort();
    expect(found).toEqual(tagged.map((r) => r.content).sort());
  });

  test("into the tenant it came from: everything exists already, nothing is written", async () => {
    const res = await importText(source.baseUrl, source.key, ndjson(exported));
    expect(res.body.data).toMatchObject({
      created: { tags: 0, entities: 0, memories: 0 },
      existing: { tags: 2, entities: 2, memories: 9 },
      failed: 0,
    });
    expect(dataOf(await exportLines(source.baseUrl, source.key))).toEqual(dataOf(exported));
  });

  test("an id held by another memory here is remapped, and its children follow the remap", async () => {
    const target = await portTenant();
    const memories = dataOf(exported).filter((r) => r.type === "memory");
    const root = memories.find((r) => r.content === "thread root");
    // A different memory holds the root's id: import the root's line with another content and time first.
    const squatter = { ...root, content: "squatter", external_id: null, created_at: "2020-01-01T00:00:00.000Z" };
    const first = await importText(target.baseUrl, target.key, ndjson([{ ...squatter, tags: [], entities: [] }]));
    expect(first.body.data.created.memories).toBe(1);
    const res = await importText(target.baseUrl, target.key, ndjson(exported));
    expect(res.body.data).toMatchObject({ created: { memories: 9 }, failed: 0 });
    const again = dataOf(await exportLines(target.baseUrl, target.key)).filter((r) => r.type === "memory");
    const newRoot = again.find((r) => r.content === "thread root");
    expect(newRoot.id).not.toBe(root.id);
    const turns = again.filter((r) => r.content.startsWith("turn "));
    expect(turns.every((t) => t.parent_memory_id === newRoot.id)).toBe(true);
    expect(again.find((r) => r.id === root.id).content).toBe("squatter");
  });

  test("a supersession whose newer memory is exported first (an earlier thread) survives the round trip", async () => {
    const source = await portTenant();
    const post = async (body: object) => (await source.api.post("/v1/memories", body)).body.data;
    // Thread one starts first; the fact it corrects sits in thread two, so the export writes the correction first.
    const one = await post({ content: "thread one" });
    const two = await post({ content: "thread two" });
    const lisbon = await post({ content: "Ann lives in Lisbon", parent_memory_id: two.id });
    await post({ content: "Ann moved to Porto", parent_memory_id: one.id, supersedes: lisbon.id });
    const lines = await exportLines(source.baseUrl, source.key);
    const contents = dataOf(lines).map((r) => r.content);
    expect(contents.indexOf("Ann moved to Porto")).toBeLessThan(contents.indexOf("Ann lives in Lisbon"));

    const target = await portTenant();
    const res = await importText(target.baseUrl, target.key, ndjson(lines));
    expect(res.body.data).toMatchObject({ created: { memories: 4 }, failed: 0, errors: [] });
    expect(modIds(await exportLines(target.baseUrl, target.key))).toEqual(modIds(lines));
    // Sent again, everything is there: nothing changes.
    const again = await importText(target.baseUrl, target.key, ndjson(lines));
    expect(again.body.data).toMatchObject({ created: { memories: 0 }, existing: { memories: 4 } });
    expect(modIds(await exportLines(target.baseUrl, target.key))).toEqual(modIds(lines));
  });

  test("a created_at still to come is stored as now, and the line sent again is that memory: no copy", async () => {
    const target = await portTenant();
    // An export from a machine whose clock runs ahead.
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const line = memoryRecordFixture({ id: crypto.randomUUID(), created_at: ahead, external_id: null });
    const first = await importText(target.baseUrl, target.key, ndjson([line]));
    expect(first.body.data).toMatchObject({ created: { memories: 1 }, failed: 0 });
    for (let i = 0; i < 2; i++) {
      const again = await importText(target.baseUrl, target.key, ndjson([line]));
      expect(again.body.data).toMatchObject({ created: { memories: 0 }, existing: { memories: 1 }, failed: 0 });
    }
    const held = dataOf(await exportLines(target.baseUrl, target.key)).filter((r) => r.type === "memory");
    expect(held.map((r) => r.id)).toEqual([line.id]);
    expect(Date.parse(held[0].created_at)).toBeLessThanOrEqual(Date.now());
  });

  test("an import cut mid-stream, then sent again whole, ends equal to one clean import", async () => {
    const target = await portTenant();
    const text = ndjson(exported);
    // The client goes away in the middle of a line: the lines before it are in, the rest is not.
    const cutAt = text.indexOf("turn 2");
    const encoder = new TextEncoder();
    const cut = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text.slice(0, cutAt)));
      },
    });
    const pending = fetch(`${target.baseUrl}/v1/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${target.key}` },
      body,
      duplex: "half",
      signal: cut.signal,
    } as RequestInit).catch(() => null);
    await Bun.sleep(300);
    cut.abort();
    await pending;
    await Bun.sleep(300);
    const partial = dataOf(await exportLines(target.baseUrl, target.key));
    expect(partial.filter((r) => r.type === "memory").length).toBeLessThan(9);
    const res = await importText(target.baseUrl, target.key, text);
    expect(res.body.data.failed).toBe(0);
    expect(res.body.data.created.memories + res.body.data.existing.memories).toBe(9);
    expect(modIds(await exportLines(target.baseUrl, target.key))).toEqual(modIds(exported));
  });

  test("a link to a tag that is not here is a note on a line that went in", async () => {
    const target = await portTenant();
    const turn = dataOf(exported).find((r) => r.type === "memory" && r.content === "turn 0");
    const res = await importText(target.baseUrl, target.key, ndjson([{ ...turn, parent_memory_id: null }]));
    expect(res.body.data).toMatchObject({ created: { memories: 1 }, failed: 0 });
    expect(res.body.data.errors).toEqual([
      {
        line: 1,
        code: "NOT_FOUND",
        message: "Some of its tags or entities name nothing here; the memory was created without them",
        details: { missing: ["blue", "red", "person:ann"] },
      },
    ]);
  });

  test("chunks sent side by side: threads cut by chunk boundaries keep their parents, roots their order", async () => {
    const target = await portTenant();
    const at = Date.parse("2025-01-01T00:00:00.000Z");
    const lines: any[] = [];
    let root = "";
    for (let i = 0; i < 1300; i++) {
      const id = crypto.randomUUID();
      if (i % 7 === 0) root = id;
      const time = new Date(at + i).toISOString();
      const parent_memory_id = i % 7 === 0 ? null : root;
      lines.push(memoryRecordFixture({ id, content: `memory ${i}`, tier: "short", parent_memory_id }, time));
    }
    const res = await importText(target.baseUrl, target.key, ndjson(lines));
    expect(res.body.data).toMatchObject({ created: { memories: 1300 }, failed: 0 });
    const again = dataOf(await exportLines(target.baseUrl, target.key));
    expect(modIds(again)).toEqual(modIds(lines));
  });

  test("bad lines are reported by number with details; the good ones go in", async () => {
    const target = await portTenant();
    const root = dataOf(exported).find((r) => r.type === "memory" && r.parent_memory_id === null);
    const memory = { ...root, tags: [], entities: [] };
    const lines = [
      JSON.stringify({ ...memory, external_id: null }),
      "{not json",
      "",
      JSON.stringify({ type: "planet" }),
      JSON.stringify({ ...memory, id: crypto.randomUUID(), tier: "huge" }),
      JSON.stringify({ ...memory, id: crypto.randomUUID(), parent_memory_id: crypto.randomUUID() }),
    ].join("\n");
    const res = await importText(target.baseUrl, target.key, lines);
    expect(res.status).toBe(200);
    const { errors, ...counts } = res.body.data;
    expect(counts).toMatchObject({ lines: 5, failed: 4, created: { memories: 1 } });
    expect(errors.map((e: any) => [e.line, e.code, e.details?.field, e.details?.constraint])).toEqual([
      [2, "VALIDATION_ERROR", "line", "json"],
      [4, "VALIDATION_ERROR", "type", "enum"],
      [5, "VALIDATION_ERROR", "tier", "enum"],
      [6, "VALIDATION_ERROR", "parent_memory_id", "exists"],
    ]);
  });
});
