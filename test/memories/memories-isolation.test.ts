import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type NatsConnection } from "nats";
import { testStack } from "../harness";
import { createMemory, expectNotFound, ids, listAll, ok, tenant } from "./memory-helpers";
import { expectError } from "../envelope-helpers";

/** Tenant and environment isolation, concurrency, and the domain events of memory writes. */
describe("tenant isolation", () => {
  test("another tenant's memory is a 404 for get, patch and delete, and absent from lists", async () => {
    const a = await tenant();
    const b = await tenant();
    const m = await createMemory(a.api, { content: "A's secret", external_id: "shared-ext" });
    expectNotFound(await b.api.get(`/v1/memories/${m.id}`));
    expectNotFound(await b.api.patch(`/v1/memories/${m.id}`, { content: "hijack" }));
    expectNotFound(await b.api.delete(`/v1/memories/${m.id}`));
    expectNotFound(await b.api.delete(`/v1/memories/${m.id}?cascade=true`));
    expect((await b.api.get("/v1/memories")).body.meta.total).toBe(0);
    expect(await ok(b.api.get("/v1/memories?external_id=shared-ext"))).toEqual([]);
    expect(await ok(b.api.get(`/v1/memories?parent_memory_id=${m.id}`))).toEqual([]);
    // Untouched for its owner.
    expect((await ok(a.api.get(`/v1/memories/${m.id}`))).content).toBe("A's secret");
  });

  test("a parent in another tenant does not exist (create and patch)", async () => {
    const a = await tenant();
    const b = await tenant();
    const foreign = await createMemory(a.api);
    const own = await createMemory(b.api);
    const exists = { field: "parent_memory_id", constraint: "exists" };
    expectError(
      await b.api.post("/v1/memories", { content: "x", parent_memory_id: foreign.id }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      exists,
    );
    expectError(
      await b.api.patch(`/v1/memories/${own.id}`, { parent_memory_id: foreign.id }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      exists,
    );
  });

  test("external_id is unique per tenant, not globally", async () => {
    const a = await tenant();
    const b = await tenant();
    await createMemory(a.api, { external_id: "same" });
    expect((await createMemory(b.api, { external_id: "same" })).external_id).toBe("same");
  });

  test("test and live keys of one tenant see separate data", async () => {
    const live = await tenant();
    const testKey = await tenant({ tenant: live.tenant, environment: "test" });
    const m = await createMemory(live.api, { content: "live data", external_id: "env-ext" });
    expectNotFound(await testKey.api.get(`/v1/memories/${m.id}`));
    expectNotFound(await testKey.api.patch(`/v1/memories/${m.id}`, { content: "x" }));
    expectNotFound(await testKey.api.delete(`/v1/memories/${m.id}`));
    expect((await testKey.api.get("/v1/memories")).body.meta.total).toBe(0);
    const t = await createMemory(testKey.api, { content: "test data", external_id: "env-ext" });
    expectError(
      await testKey.api.post("/v1/memories", { content: "y", parent_memory_id: m.id }),
      400,
      "VALIDATION_ERROR",
      "parent_memory_id must name an existing memory",
      {
        field: "parent_memory_id",
        constraint: "exists",
      },
    );
    expect(ids(await listAll(live.api, "/v1/memories"))).toEqual([m.id]);
    expect(ids(await listAll(testKey.api, "/v1/memories"))).toEqual([t.id]);
  });
});

describe("concurrency", () => {
  test("ten concurrent creates with one external_id: exactly one succeeds", async () => {
    const { api } = await tenant();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.post("/v1/memories", { content: `racer ${i}`, external_id: "race" })),
    );
    const wins = results.filter((r) => r.status === 200);
    expect(wins.length).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expectError(r, 400, "VALIDATION_ERROR", "A memory with this external_id already exists", {
        field: "external_id",
        constraint: "unique",
      });
    }
    expect(ids(await listAll(api, "/v1/memories?external_id=race"))).toEqual([wins[0]!.body.data.id]);
    expect((await api.get("/v1/memories")).body.meta.total).toBe(1);
  });

  test("concurrent patches moving one external_id between memories leave exactly one owner", async () => {
    const { api } = await tenant();
    const ms = await Promise.all(Array.from({ length: 8 }, () => createMemory(api)));
    const results = await Promise.all(ms.map((m) => api.patch(`/v1/memories/${m.id}`, { external_id: "contested" })));
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    const owners = (await Promise.all(ms.map((m) => ok(api.get(`/v1/memories/${m.id}`))))).filter(
      (m) => m.external_id === "contested",
    );
    expect(owners.length).toBe(1);
    expect(ids(await listAll(api, "/v1/memories?external_id=contested"))).toEqual([owners[0].id]);
  });

  test("concurrent creates under one parent and concurrent deletes keep totals and children exact", async () => {
    const { api } = await tenant();
    const parent = await createMemory(api);
    const kids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createMemory(api, { content: `kid ${i}`, parent_memory_id: parent.id })),
    );
    expect((await api.get(`/v1/memories?parent_memory_id=${parent.id}`)).body.meta.total).toBe(20);
    await Promise.all(kids.slice(0, 10).map((k) => ok(api.delete(`/v1/memories/${k.id}`))));
    expect((await api.get(`/v1/memories?parent_memory_id=${parent.id}`)).body.meta.total).toBe(10);
    expect((await api.get("/v1/memories")).body.meta.total).toBe(11);
  });
});

describe("domain events", () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: (await testStack()).natsUrl.split(",") });
  });
  afterAll(async () => {
    await nc?.close();
  });

  test("create, update, entity link, orphaning and delete each publish a versioned event with the tenant", async () => {
    const jsm = await nc.jetstreamManager();
    const startSeq = (await jsm.streams.info("EVENTS")).state.last_seq + 1;
    const { api, tenant: name } = await tenant();
    const m = await createMemory(api, { content: "evented" });
    const child = await createMemory(api, { content: "child", parent_memory_id: m.id });
    await ok(api.patch(`/v1/memories/${m.id}`, { content: "evented 2", tier: "long", metadata: {} }));
    const entity = await ok(api.post("/v1/entities", { name: "E", type: "concept", memory_ids: [m.id] }));
    await ok(api.delete(`/v1/memories/${m.id}`));

    // Read the stream directly from where it stood before the writes; other tests' events are skipped.
    const lastSeq = (await jsm.streams.info("EVENTS")).state.last_seq;
    const seen: { subject: string; msgId: string | undefined; body: any }[] = [];
    for (let seq = startSeq; seq <= lastSeq; seq++) {
      const msg = await jsm.streams.getMessage("EVENTS", { seq }).catch(() => null);
      if (!msg || !msg.subject.startsWith("events.memory.")) continue;
      const body = msg.json<any>();
      if (body.tenant === name) seen.push({ subject: msg.subject, msgId: msg.header?.get("Nats-Msg-Id"), body });
    }
    const summary = seen.map((e) => [
      e.subject,
      e.body.memory_id === m.id ? "m" : "child",
      e.body.version,
      e.body.changed,
      e.msgId === `${e.body.memory_id}:${e.body.version}`,
    ]);
    expect(summary).toEqual([
      ["events.memory.created", "m", 1, [], true],
      ["events.memory.created", "child", 1, [], true],
      ["events.memory.updated", "m", 2, ["content", "tier"], true],
      ["events.memory.entities_changed", "m", 3, [], true],
      ["events.memory.deleted", "m", 4, [], true],
      ["events.memory.updated", "child", 2, ["parent_memory_id"], true],
    ]);
    const [created, , updated, linked, deleted, orphaned] = seen.map((e) => e.body);
    expect(created).toMatchObject({
      env: "live",
      memory: { id: m.id, content: "evented", tier: "medium", tag_ids: [], entity_ids: [], version: 1 },
    });
    expect(updated.memory).toMatchObject({ content: "evented 2", tier: "long", version: 2 });
    expect(linked.memory.entity_ids).toEqual([entity.id]);
    expect(orphaned.memory).toMatchObject({ id: child.id, parent_memory_id: null, version: 2 });
    expect(deleted.memory).toBeNull();
    for (const e of seen) expect(Date.parse(e.body.at)).toBeGreaterThan(0);
  });
});
