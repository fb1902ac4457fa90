import { beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { testStack } from "../harness";
import { runProcess } from "../process-helpers";
import { newTenant } from "../api";
import { eventually, word } from "../search/search-helpers";
import { buildClient, PACKAGE_DIR } from "./sdk-build";
import type * as Sdk from "../../clients/typescript/src/index.ts";

/** The built package, imported the way an application imports it. */
let sdk: typeof Sdk;
let baseUrl: string;
let adminKey: string;

beforeAll(async () => {
  await buildClient();
  sdk = await import(resolve(PACKAGE_DIR, "dist/index.js"));
  const stack = await testStack();
  baseUrl = stack.baseUrl;
  adminKey = stack.adminKey;
}, 120_000);

const clientFor = async (opts: Parameters<typeof newTenant>[2] = {}) => {
  const t = await newTenant(baseUrl, adminKey, opts);
  return { ...t, client: sdk.createClient({ baseUrl, apiKey: t.key }) };
};

describe("the TypeScript client against the running service", () => {
  test("a thread in one batch, sent twice with one Idempotency-Key: created once", async () => {
    const { client } = await clientFor();
    const items = [
      { content: "Imported chat", content_type: "conversation" as const },
      { content: "First turn", parent_ref: 0 },
      { content: "", parent_ref: 0 },
    ];
    const first = await client.memories.createBatch(items, { idempotencyKey: "import-1" });
    const again = await client.memories.createBatch(items, { idempotencyKey: "import-1" });
    expect(again).toEqual(first);
    expect([first.created, first.failed]).toEqual([2, 1]);
    const [root, turn, empty] = first.items;
    if (!root || !("data" in root) || !turn || !("data" in turn)) throw new Error("the root and its turn are created");
    expect(turn.data.parent_memory_id).toBe(root.data.id);
    expect(empty && "error" in empty && empty.error.details).toEqual({ field: "content", constraint: "required" });
    expect((await client.memories.list({ limit: 1 })).total).toBe(2);
  });

  test("a chat backend: a thread with turns, tags, an entity, search and context", async () => {
    const { client } = await clientFor();
    const topic = word();
    const thread = await client.memories.create({
      content: `Support chat about ${topic}`,
      content_type: "conversation",
    });
    const turns: Sdk.Memory[] = [];
    for (const content of [`My ${topic} order is late`, "It ships tomorrow", `Thanks, ${topic} noted`])
      turns.push(await client.memories.create({ content, parent_memory_id: thread.id, metadata: { user_id: "u1" } }));
    const tag = await client.tags.create({ name: "support" });
    const attached = await client.memories.attachTags(turns[0]!.id, { tag_ids: [tag.id] });
    expect(attached.tags.map((t) => t.name)).toEqual(["support"]);
    const person = await client.entities.create({ name: "Ann", type: "person", memory_ids: [turns[0]!.id] });
    expect((await client.entities.link(person.id, { memory_ids: [turns[1]!.id] })).memory_count).toBe(2);

    const page = await client.memories.list({ parent_memory_id: thread.id, sort: "created_at", order: "asc" });
    expect(page.items.map((m) => m.id)).toEqual(turns.map((m) => m.id));
    expect([page.total, page.hasMore]).toEqual([3, false]);
    expect((await client.memories.get(turns[0]!.id)).entity_ids).toEqual([person.id]);
    const updated = await client.memories.update(turns[1]!.id, { tier: "long" });
    expect(updated.tier).toBe("long");

    const results = await eventually(async () => {
      const { results } = await client.search({ query: `${topic} order late`, limit: 5 });
      expect(results.map((r) => r.id)).toContain(turns[0]!.id);
      return results;
    });
    expect(results[0]!.score).toBeGreaterThan(0);
    const context = await client.context({ query: `${topic} order`, max_tokens: 400 });
    expect(context.context).toContain("order is late");

    expect(await client.memories.detachTag(turns[0]!.id, tag.id)).toMatchObject({ removed: true });
    expect(await client.entities.unlink(person.id, turns[0]!.id)).toMatchObject({ removed: true });
    expect((await client.memories.delete(thread.id, { cascade: true })).deleted_count).toBe(4);
  });

  test("iterate walks every page of a list", async () => {
    const { client } = await clientFor();
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) ids.add((await client.tags.create({ name: `t${i}` })).id);
    const seen: string[] = [];
    for await (const tag of client.tags.iterate({ limit: 3 })) seen.push(tag.id);
    expect(seen.length).toBe(7);
    expect(new Set(seen)).toEqual(ids);
    const first = await client.tags.list({ limit: 3 });
    expect([first.items.length, first.total, first.hasMore]).toEqual([3, 7, true]);
  });

  test("refusals are MemoryServiceError with code, details and the request id", async () => {
    const { client } = await clientFor();
    const missing = await client.memories.get(crypto.randomUUID()).catch((e) => e);
    expect(missing).toBeInstanceOf(sdk.MemoryServiceError);
    expect([missing.status, missing.code, missing.message]).toEqual([404, "NOT_FOUND", "Memory not found"]);
    expect(missing.requestId).toMatch(/.+/);
    const invalid = await client.memories.create({ content: "x", tier: "forever" as "long" }).catch((e) => e);
    expect([invalid.status, invalid.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(invalid.details).toMatchObject({ field: "tier", constraint: "enum" });
    const bad = sdk.createClient({ baseUrl, apiKey: "svc_live_nope" });
    expect((await bad.memories.list().catch((e) => e)).code).toBe("UNAUTHORIZED");
  });

  test("a 429 carries Retry-After when retries are off", async () => {
    const { key } = await newTenant(baseUrl, adminKey, { rate_limit: 1 });
    const client = sdk.createClient({ baseUrl, apiKey: key, retry: { retries: 0 } });
    await client.memories.list();
    const limited = await client.memories.list().catch((e) => e);
    expect(limited.code).toBe("RATE_LIMITED");
    expect(limited.retryAfter).toBeGreaterThan(0);
  });

  test("admin: keys and usage", async () => {
    const { client } = await clientFor({ scopes: ["admin", "memories:read"] });
    const made = await client.keys.create({ name: "reader", scopes: ["memories:read"] });
    expect(made.key).toMatch(/^svc_live_/);
    const all = [];
    for await (const k of client.keys.iterate()) all.push(k.id);
    expect(all).toContain(made.id);
    expect((await client.keys.update(made.id, { name: "reader 2" })).name).toBe("reader 2");
    expect((await client.keys.get(made.id)).name).toBe("reader 2");
    const rotated = await client.keys.rotate(made.id);
    expect(rotated.key).not.toBe(made.key);
    expect((await client.keys.revoke(made.id)).id).toBe(made.id);
    await eventually(async () => {
      const usage = await client.usage();
      expect(usage.by_endpoint.map((e) => e.endpoint)).toContain("POST /v1/keys");
    });
  });

  test("runs under Node 20+ from the built ESM, with no dependency beyond fetch", async () => {
    const { key } = await newTenant(baseUrl, adminKey);
    const entry = JSON.stringify(resolve(PACKAGE_DIR, "dist/index.js"));
    const script = `
      const { createClient, MemoryServiceError } = await import(${entry});
      const client = createClient({ baseUrl: process.env.BASE, apiKey: process.env.KEY });
      const m = await client.memories.create({ content: "from node" });
      const got = await client.memories.get(m.id);
      const err = await client.memories.get("nope").catch((e) => e);
      console.log(JSON.stringify({ node: process.versions.node, content: got.content,
        code: err.code, isError: err instanceof MemoryServiceError }));`;
    const { out, err, code } = await runProcess(["node", "--input-type=module", "-e", script], {
      env: { PATH: process.env.PATH ?? "", BASE: baseUrl, KEY: key },
    });
    expect(err).toBe("");
    expect(code).toBe(0);
    const answer = JSON.parse(out);
    expect(Number(answer.node.split(".")[0])).toBeGreaterThanOrEqual(20);
    expect(answer).toMatchObject({ content: "from node", code: "NOT_FOUND", isError: true });
  });

  test("the package is publishable as is: exports map, types and bin point at built files", async () => {
    const pkg = await Bun.file(resolve(PACKAGE_DIR, "package.json")).json();
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const file of [pkg.exports["."].import, pkg.exports["."].types, pkg.bin["memory-service-mcp"]])
      expect(await Bun.file(resolve(PACKAGE_DIR, file)).exists()).toBe(true);
    const dts = await Bun.file(resolve(PACKAGE_DIR, "dist/index.d.ts")).text();
    expect(dts).toContain("createClient");
  });
});
