import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { eventually } from "../search/search-helpers";
import { expectNotFound, ids, listAll, ok, tenant } from "./memory-helpers";
import { expectError } from "../envelope-helpers";
import { inMs, make, ms, read, watchEvents } from "./lifecycle-helpers";

/**
 * Expiry: `expires_at` or `ttl_seconds`; an expired memory is gone for every read and write at once,
 * before the sweeper purges it; the purge deletes it as a delete does (event reason "expired", links,
 * external_id, children made roots), or its subtree with it when the tenant's retention cascades.
 */
const invalid = (message: string, details: Record<string, unknown>) =>
  [400, "VALIDATION_ERROR", message, details] as const;

describe("expires_at and ttl_seconds", () => {
  let api: ApiClient;
  beforeAll(async () => {
    api = (await tenant()).api;
  });

  test("ttl_seconds sets expires_at from the creation; expires_at is kept; none by default", async () => {
    const ttl = await make(api, { ttl_seconds: 3600 });
    expect(ms(ttl.expires_at!) - ms(ttl.created_at)).toBe(3_600_000);
    const at = inMs(86_400_000);
    expect((await make(api, { expires_at: at })).expires_at).toBe(at);
    expect((await make(api)).expires_at).toBeNull();
    expect((await make(api, { expires_at: null })).expires_at).toBeNull();
  });

  test("refusals: both given, a time not in the future, a ttl out of range; nothing is stored", async () => {
    const before = (await api.get("/v1/memories?limit=1")).body.meta.total;
    expectError(
      await api.post("/v1/memories", { content: "x", ttl_seconds: 60, expires_at: inMs(60_000) }),
      ...invalid("Give expires_at or ttl_seconds, not both", { field: "ttl_seconds", constraint: "exclusive" }),
    );
    expectError(
      await api.post("/v1/memories", { content: "x", expires_at: inMs(-1000) }),
      ...invalid("expires_at must be in the future", { field: "expires_at", constraint: "future" }),
    );
    expectError(
      await api.post("/v1/memories", { content: "x", ttl_seconds: 0 }),
      ...invalid("ttl_seconds must be >= 1", { field: "ttl_seconds", constraint: "minimum", min: 1 }),
    );
    expectError(
      await api.post("/v1/memories", { content: "x", ttl_seconds: 3_153_600_001 }),
      ...invalid("ttl_seconds must be <= 3153600000", { field: "ttl_seconds", constraint: "maximum", max: 3153600000 }),
    );
    expect((await api.get("/v1/memories?limit=1")).body.meta.total).toBe(before);
  });

  test("a patch sets, moves or removes the expiry; a past one is refused and changes nothing", async () => {
    const m = await make(api);
    const later = inMs(7_200_000);
    const set = await ok(api.patch(`/v1/memories/${m.id}`, { expires_at: later }));
    expect(set.expires_at).toBe(later);
    expectError(
      await api.patch(`/v1/memories/${m.id}`, { expires_at: inMs(-5), content: "changed" }),
      ...invalid("expires_at must be in the future", { field: "expires_at", constraint: "future" }),
    );
    expect((await read(api, m.id))!.content).toBe("a memory");
    expect((await ok(api.patch(`/v1/memories/${m.id}`, { expires_at: null }))).expires_at).toBeNull();
    expectError(
      await api.patch(`/v1/memories/${m.id}`, { ttl_seconds: 5 }),
      ...invalid("ttl_seconds is not an accepted field", { field: "ttl_seconds", constraint: "unknown_field" }),
    );
  });
});

describe("an expired memory is gone at once, for every read and write", () => {
  let api: ApiClient;
  beforeAll(async () => {
    api = (await tenant()).api;
  });

  test("404, not listed or counted, not found, not in context; no write reaches it", async () => {
    const root = await make(api, { content: "root of a thread" });
    const tag = await ok(api.post("/v1/tags", { name: "fleeting" }));
    const before = await make(api, { content: "before it", parent_memory_id: root.id });
    const doomed = await make(api, {
      content: "zqvanishing note about the harbour",
      parent_memory_id: root.id,
      external_id: "doomed",
      expires_at: inMs(1200),
    });
    const after = await make(api, { content: "after it", parent_memory_id: root.id });
    await ok(api.post(`/v1/memories/${doomed.id}/tags`, { tag_ids: [tag.id] }));
    expect(ids(await listAll(api, `/v1/memories?parent_memory_id=${root.id}`))).toContain(doomed.id);

    await eventually(async () => expect(await read(api, doomed.id)).toBeNull(), 5000, 20);
    const list = await api.get(`/v1/memories?parent_memory_id=${root.id}&sort=occurred_at&order=asc`);
    expect(ids(list.body.data)).toEqual([before.id, after.id]);
    expect(list.body.meta.total).toBe(2);
    expect((await api.get("/v1/memories?external_id=doomed")).body.meta.total).toBe(0);
    expect((await api.get(`/v1/memories?tag_id=${tag.id}`)).body.meta.total).toBe(0);
    const found = await ok(api.post("/v1/search", { query: "zqvanishing harbour", limit: 10 }));
    expect(ids(found.results)).not.toContain(doomed.id);
    expect(ids((await ok(api.post("/v1/search", { query: "*", limit: 100 }))).results)).not.toContain(doomed.id);
    const context = await ok(api.post("/v1/context", { query: "before it", neighbors: 2 }));
    expect(ids(context.memories)).not.toContain(doomed.id);
    expect(context.context).not.toContain("vanishing");

    expectNotFound(await api.patch(`/v1/memories/${doomed.id}`, { content: "x" }));
    expectNotFound(await api.delete(`/v1/memories/${doomed.id}`));
    expectNotFound(await api.post(`/v1/memories/${doomed.id}/tags`, { tag_ids: [tag.id] }));
    expectNotFound(await api.delete(`/v1/memories/${doomed.id}/tags/${tag.id}`));
    expectError(
      await api.post("/v1/memories", { content: "x", parent_memory_id: doomed.id }),
      ...invalid("parent_memory_id must name an existing memory", { field: "parent_memory_id", constraint: "exists" }),
    );
    expectError(
      await api.post("/v1/entities", { name: "Harbour", type: "place", memory_ids: [doomed.id] }),
      ...invalid("memory_ids must name existing memories", {
        field: "memory_ids",
        constraint: "exists",
        missing: [doomed.id],
      }),
    );
    // Its external_id is free at once.
    const heir = await make(api, { external_id: "doomed" });
    expect(ids(await listAll(api, "/v1/memories?external_id=doomed"))).toEqual([heir.id]);
  });

  test("reads racing the expiry never see it again once one has seen it gone", async () => {
    const { api: own } = await tenant();
    const thread = await make(own, { content: "thread" });
    const expiresAt = Date.now() + 700;
    const m = await make(own, {
      content: "zqracing memory",
      parent_memory_id: thread.id,
      external_id: "racing",
      expires_at: new Date(expiresAt).toISOString(),
    });
    const reads: { sent: number; received: number; visible: boolean }[] = [];
    const probes: (() => Promise<boolean>)[] = [
      async () => (await own.get(`/v1/memories/${m.id}`)).status === 200,
      async () => ids((await own.get(`/v1/memories?parent_memory_id=${thread.id}`)).body.data).includes(m.id),
      async () => (await own.get("/v1/memories?external_id=racing")).body.meta.total === 1,
      async () => ids((await ok(own.post("/v1/search", { query: "zqracing", limit: 5 }))).results).includes(m.id),
      async () => ids((await ok(own.post("/v1/context", { query: "zqracing" }))).memories).includes(m.id),
    ];
    const until = expiresAt + 1500;
    await Promise.all(
      probes.map(async (probe) => {
        while (Date.now() < until) {
          const sent = Date.now();
          const visible = await probe();
          reads.push({ sent, received: Date.now(), visible });
        }
      }),
    );
    const firstGone = Math.min(...reads.filter((r) => !r.visible).map((r) => r.received));
    const late = reads.filter((r) => r.visible && r.sent > firstGone);
    expect(late).toEqual([]);
    // Within a few ms of the clock: what was sent after the expiry saw it gone, what came back before saw it.
    expect(reads.filter((r) => r.visible && r.sent > expiresAt + 20)).toEqual([]);
    expect(reads.filter((r) => !r.visible && r.received < expiresAt - 20)).toEqual([]);
    expect(reads.filter((r) => r.sent < expiresAt - 200).length).toBeGreaterThan(0);
  });
});

describe("the sweeper purges it, as a delete does", () => {
  test("deleted event with reason expired; tag and entity counts drop; children become roots", async () => {
    const { api, tenant: t } = await tenant();
    const events = await watchEvents(t);
    try {
      const parent = await make(api, { content: "expiring parent", external_id: "p-1", expires_at: inMs(600) });
      const kids = [await make(api, { parent_memory_id: parent.id }), await make(api, { parent_memory_id: parent.id })];
      const tag = await ok(api.post("/v1/tags", { name: "t" }));
      await ok(api.post(`/v1/memories/${parent.id}/tags`, { tag_ids: [tag.id] }));
      const entity = await ok(api.post("/v1/entities", { name: "Ann", type: "person", memory_ids: [parent.id] }));

      await eventually(async () => expect(events.of("deleted", parent.id).length).toBe(1), 10_000, 50);
      expect(events.of("deleted", parent.id)[0]!.reason).toBe("expired");
      expect((await ok(api.get(`/v1/tags/${tag.id}`))).memory_count).toBe(0);
      expect((await ok(api.get(`/v1/entities/${entity.id}`))).memory_count).toBe(0);
      for (const kid of kids) {
        expect((await read(api, kid.id))!.parent_memory_id).toBeNull();
        expect(events.of("updated", kid.id).map((e) => e.changed)).toEqual([["parent_memory_id"]]);
      }
      expect(ids(await listAll(api, "/v1/memories?root=true")).sort()).toEqual(ids(kids).sort());
      // An explicit delete says so.
      await ok(api.delete(`/v1/memories/${kids[0]!.id}`));
      await eventually(async () => expect(events.of("deleted", kids[0]!.id)[0]?.reason).toBe("deleted"), 5000, 20);
    } finally {
      await events.close();
    }
  });

  test("with retention.cascade the subtree is purged with it", async () => {
    const { api, tenant: t } = await tenant();
    await ok(api.patch("/v1/tenant", { retention: { cascade: true } }));
    const events = await watchEvents(t);
    try {
      const parent = await make(api, { content: "expiring thread", expires_at: inMs(600) });
      const kid = await make(api, { parent_memory_id: parent.id });
      const grandkid = await make(api, { parent_memory_id: kid.id });
      const other = await make(api);
      await eventually(async () => expect(events.seen.filter((e) => e.type === "deleted").length).toBe(3), 10_000, 50);
      expect(events.seen.filter((e) => e.type === "deleted").every((e) => e.reason === "expired")).toBe(true);
      for (const m of [parent, kid, grandkid]) expect(await read(api, m.id)).toBeNull();
      expect(ids(await listAll(api, "/v1/memories"))).toEqual([other.id]);
    } finally {
      await events.close();
    }
  });
});
