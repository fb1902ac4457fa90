import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { newTenant } from "../api";
import { count, expectError, memory, tag, tagsOf } from "./tag-helpers";

/**
 * Spec 4.2 memory↔tag links, black-box through the gateway. Memories are created through the real
 * POST /v1/memories (memories service).
 */
let base: string;
let admin: string;
let natsUrl: string;

beforeAll(async () => {
  const stack = await testStack();
  base = stack.baseUrl;
  admin = stack.adminKey;
  natsUrl = stack.natsUrl;
});

describe("POST /v1/memories/:id/tags", () => {
  test(
    "attaches, skips already attached ones, counts duplicate ids once; " + "tags are the full list sorted by name",
    async () => {
      const { api } = await newTenant(base, admin);
      const m = await memory(api);
      const b = await tag(api, "beta", "#00FF00");
      const a = await tag(api, "Alpha");
      const c = await tag(api, "charlie");
      const r1 = await api.post(`/v1/memories/${m}/tags`, { tag_ids: [b.id, b.id, c.id] });
      expect(r1.status).toBe(200);
      expect(r1.body.data).toEqual({
        memory_id: m,
        tags: [
          { id: b.id, name: "beta", color: "#00FF00" },
          { id: c.id, name: "charlie", color: null },
        ],
        added: 2,
        skipped: 0,
      });
      const r2 = await api.post(`/v1/memories/${m}/tags`, { tag_ids: [a.id, b.id, a.id, c.id] });
      expect(r2.body.data).toEqual({
        memory_id: m,
        tags: [
          { id: a.id, name: "Alpha", color: null },
          { id: b.id, name: "beta", color: "#00FF00" },
          { id: c.id, name: "charlie", color: null },
        ],
        added: 1,
        skipped: 2,
      });
      expect([await count(api, a.id), await count(api, b.id), await count(api, c.id)]).toEqual([1, 1, 1]);
    },
  );

  test("a memory read shows its current tags", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "visible", "#123456");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect((await api.get(`/v1/memories/${m}`)).body.data.tags).toEqual([
      { id: t.id, name: "visible", color: "#123456" },
    ]);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect((await api.get(`/v1/memories/${m}`)).body.data.tags).toEqual([]);
  });

  test("unknown memory or any unknown tag: 404 and nothing attached", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "real");
    expectError(
      await api.post(`/v1/memories/${crypto.randomUUID()}/tags`, { tag_ids: [t.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(
      await api.post("/v1/memories/not-a-uuid/tags", { tag_ids: [t.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, crypto.randomUUID()] }),
      404,
      "NOT_FOUND",
      "Tag not found",
    );
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, "not-a-uuid"] }),
      404,
      "NOT_FOUND",
      "Tag not found",
    );
    expect(await count(api, t.id)).toBe(0);
  });

  test("invalid bodies are 400 with field and constraint", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "t");
    const cases: [unknown, string, Record<string, unknown>][] = [
      [{}, "tag_ids is required", { field: "tag_ids", constraint: "required" }],
      [{ tag_ids: [] }, "tag_ids must have at least 1 item(s)", { field: "tag_ids", constraint: "min_items", min: 1 }],
      [
        { tag_ids: Array.from({ length: 101 }, () => t.id) },
        "tag_ids must have at most 100 items",
        { field: "tag_ids", constraint: "max_items", max: 100 },
      ],
      [{ tag_ids: t.id }, "tag_ids must be array", { field: "tag_ids", constraint: "type" }],
      [{ tag_ids: [7] }, "tag_ids.0 must be string", { field: "tag_ids.0", constraint: "type" }],
      [
        { tag_ids: [t.id], extra: 1 },
        "extra is not an accepted field",
        { field: "extra", constraint: "unknown_field" },
      ],
    ];
    for (const [body, message, details] of cases)
      expectError(await api.post(`/v1/memories/${m}/tags`, body), 400, "VALIDATION_ERROR", message, details);
    expect(await count(api, t.id)).toBe(0);
  });

  test("a memory carries at most 100 tags; the call that would pass it attaches nothing", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const ids = (await Promise.all(Array.from({ length: 101 }, (_, i) => tag(api, `cap ${i}`)))).map((t) => t.id);
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: ids.slice(0, 99) })).body.data.added).toBe(99);
    expectError(
      await api.post(`/v1/memories/${m}/tags`, { tag_ids: ids.slice(99) }),
      400,
      "VALIDATION_ERROR",
      "A memory can carry at most 100 tags",
      {
        field: "tag_ids",
        constraint: "max_count",
        max: 100,
      },
    );
    expect(await count(api, ids[100]!)).toBe(0);
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: [ids[99]!] })).body.data).toMatchObject({
      added: 1,
      skipped: 0,
    });
    expect((await api.post(`/v1/memories/${m}/tags`, { tag_ids: [ids[0]!] })).body.data.tags).toHaveLength(100);
  });
});

describe("DELETE /v1/memories/:id/tags/:tagId", () => {
  test("removes: true, then removes: false (idempotent); counts follow", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "detachable");
    const other = await tag(api, "stays");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id, other.id] });
    const r1 = await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(r1.status).toBe(200);
    expect(r1.body.data).toEqual({ memory_id: m, tag_id: t.id, removed: true });
    const r2 = await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(r2.status).toBe(200);
    expect(r2.body.data).toEqual({ memory_id: m, tag_id: t.id, removed: false });
    expect(await count(api, t.id)).toBe(0);
    expect(await tagsOf(api, m, other.id)).toEqual([other.id]);
  });

  test("unknown or malformed memory or tag is 404", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "x");
    expectError(
      await api.delete(`/v1/memories/${crypto.randomUUID()}/tags/${t.id}`),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expectError(await api.delete(`/v1/memories/nope/tags/${t.id}`), 404, "NOT_FOUND", "Memory not found");
    expectError(await api.delete(`/v1/memories/${m}/tags/${crypto.randomUUID()}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.delete(`/v1/memories/${m}/tags/nope`), 404, "NOT_FOUND", "Tag not found");
  });
});

describe("memory_count is exact", () => {
  test("25 concurrent attaches, 25 repeated attaches and 10 concurrent detaches leave exactly 15", async () => {
    const { api } = await newTenant(base, admin);
    const t = await tag(api, "hot");
    const ms = await Promise.all(Array.from({ length: 25 }, (_, i) => memory(api, `m${i}`)));
    const first = await Promise.all(ms.map((m) => api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] })));
    expect(first.map((r) => r.body.data.added)).toEqual(Array(25).fill(1));
    const again = await Promise.all(ms.map((m) => api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] })));
    expect(again.map((r) => r.body.data.skipped)).toEqual(Array(25).fill(1));
    expect(await count(api, t.id)).toBe(25);
    const detached = await Promise.all(ms.slice(0, 10).map((m) => api.delete(`/v1/memories/${m}/tags/${t.id}`)));
    expect(detached.map((r) => r.body.data.removed)).toEqual(Array(10).fill(true));
    expect(await count(api, t.id)).toBe(15);
    expect((await api.get("/v1/tags?sort=memory_count")).body.data[0].memory_count).toBe(15);
  });

  test("deleting a memory drops the counts of its tags", async () => {
    const { api } = await newTenant(base, admin);
    const t = await tag(api, "counted");
    const m = await memory(api);
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect((await api.delete(`/v1/memories/${m}`)).status).toBe(200);
    expect(await count(api, t.id)).toBe(0);
  });
});

describe("deleting a tag", () => {
  test("removes it from every memory that carried it; the memories stay", async () => {
    const { api } = await newTenant(base, admin);
    const gone = await tag(api, "gone");
    const keep = await tag(api, "keep");
    const m1 = await memory(api, "one");
    const m2 = await memory(api, "two");
    await api.post(`/v1/memories/${m1}/tags`, { tag_ids: [gone.id, keep.id] });
    await api.post(`/v1/memories/${m2}/tags`, { tag_ids: [gone.id] });
    expect(await count(api, gone.id)).toBe(2);
    expect((await api.delete(`/v1/tags/${gone.id}`)).body.data).toEqual({ id: gone.id, deleted: true });
    expect(await tagsOf(api, m1, keep.id)).toEqual([keep.id]);
    expect(await tagsOf(api, m2, keep.id)).toEqual([keep.id]);
    expect((await api.get(`/v1/memories/${m1}`)).status).toBe(200);
    expect((await api.get(`/v1/memories/${m2}`)).body.data.content).toBe("two");
    expectError(await api.post(`/v1/memories/${m1}/tags`, { tag_ids: [gone.id] }), 404, "NOT_FOUND", "Tag not found");
    expectError(await api.delete(`/v1/memories/${m1}/tags/${gone.id}`), 404, "NOT_FOUND", "Tag not found");
  });
});

describe("isolation and scopes", () => {
  test("another tenant's tag cannot be attached or detached; another tenant's memory is 404", async () => {
    const a = await newTenant(base, admin);
    const b = await newTenant(base, admin);
    const ta = await tag(a.api, "a's");
    const ma = await memory(a.api);
    const mb = await memory(b.api);
    expectError(await b.api.post(`/v1/memories/${mb}/tags`, { tag_ids: [ta.id] }), 404, "NOT_FOUND", "Tag not found");
    expectError(await b.api.delete(`/v1/memories/${mb}/tags/${ta.id}`), 404, "NOT_FOUND", "Tag not found");
    const tb = await tag(b.api, "b's");
    expectError(
      await b.api.post(`/v1/memories/${ma}/tags`, { tag_ids: [tb.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    expect(await count(a.api, ta.id)).toBe(0);
  });

  test("test and live of one tenant do not share memories or tags", async () => {
    const live = await newTenant(base, admin);
    const sandbox = await newTenant(base, admin, { tenant: live.tenant, environment: "test" });
    const tl = await tag(live.api, "env");
    const ml = await memory(live.api);
    const ts = await tag(sandbox.api, "env");
    expectError(
      await sandbox.api.post(`/v1/memories/${ml}/tags`, { tag_ids: [ts.id] }),
      404,
      "NOT_FOUND",
      "Memory not found",
    );
    const ms = await memory(sandbox.api);
    expectError(
      await sandbox.api.post(`/v1/memories/${ms}/tags`, { tag_ids: [tl.id] }),
      404,
      "NOT_FOUND",
      "Tag not found",
    );
    expect((await sandbox.api.post(`/v1/memories/${ms}/tags`, { tag_ids: [ts.id] })).body.data.added).toBe(1);
    expect([await count(live.api, tl.id), await count(sandbox.api, ts.id)]).toEqual([0, 1]);
  });

  test("link writes need memories:write", async () => {
    const owner = await newTenant(base, admin);
    const reader = await newTenant(base, admin, { tenant: owner.tenant, scopes: ["memories:read"] });
    const t = await tag(owner.api, "scoped");
    const m = await memory(owner.api);
    expectError(
      await reader.api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] }),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:write",
    );
    expectError(
      await reader.api.delete(`/v1/memories/${m}/tags/${t.id}`),
      403,
      "FORBIDDEN",
      "Missing required scope: memories:write",
    );
  });
});

describe("events", () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: natsUrl.split(",") });
  });
  afterAll(async () => {
    await nc?.close();
  });

  const lastTagsChanged = async () => {
    const msg = await (await nc.jetstreamManager()).streams.getMessage("EVENTS", {
      last_by_subj: "events.memory.tags_changed",
    });
    return msg.json<{
      type: string;
      memory_id: string;
      version: number;
      memory: { tag_ids: string[]; version: number };
    }>();
  };

  test("each committed link change publishes memory.tags_changed with the new tags and a higher version", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api);
    const t = await tag(api, "evented");
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    const e1 = await lastTagsChanged();
    expect(e1).toMatchObject({ type: "tags_changed", memory_id: m, memory: { tag_ids: [t.id] } });
    expect(e1.memory.version).toBe(e1.version);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    const e2 = await lastTagsChanged();
    expect(e2).toMatchObject({ type: "tags_changed", memory_id: m, memory: { tag_ids: [] } });
    expect(e2.version).toBeGreaterThan(e1.version);
  });
});

describe("search sees link changes at once", () => {
  test("the tags filter of search finds a memory right after attach, and not after detach", async () => {
    const { api } = await newTenant(base, admin);
    const m = await memory(api, "searchable tagged memory");
    await memory(api, "untagged memory");
    const t = await tag(api, "findme");
    const search = async () => {
      const res = await api.post("/v1/search", { query: "*", tags: [t.id], limit: 10, threshold: 0 });
      expect(res.status).toBe(200);
      return (res.body.data.results as { id: string }[]).map((r) => r.id);
    };
    expect(await search()).toEqual([]);
    await api.post(`/v1/memories/${m}/tags`, { tag_ids: [t.id] });
    expect(await search()).toEqual([m]);
    await api.delete(`/v1/memories/${m}/tags/${t.id}`);
    expect(await search()).toEqual([]);
  });
});
