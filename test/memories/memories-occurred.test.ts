import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { createMemory, ids, listAll, ok, tenant, type MemoryOut } from "./memory-helpers";
import { expectError } from "../envelope-helpers";

/**
 * occurred_at: when the thing happened, given or created_at; the order of a thread (ties by created_at,
 * then id) for `sort=occurred_at`, whatever order the memories arrived in; occurred_after / occurred_before.
 */
type Lived = MemoryOut & { occurred_at: string };

const ms = (iso: string) => Date.parse(iso);
/** The thread's order, as the model has it: occurred_at, then created_at, then id. */
const threadOrder = (a: Lived, b: Lived) =>
  ms(a.occurred_at) - ms(b.occurred_at) ||
  ms(a.created_at) - ms(b.created_at) ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const at = (day: number, minute = 0) => new Date(Date.UTC(2023, 4, day, 13, minute)).toISOString();

describe("occurred_at on a memory", () => {
  let api: ApiClient;
  beforeAll(async () => {
    api = (await tenant()).api;
  });

  test("defaults to created_at; a given instant is kept (UTC, ms), before 1970 too; a patch changes it", async () => {
    const plain = (await createMemory(api)) as Lived;
    expect(plain.occurred_at).toBe(plain.created_at);
    const given = (await createMemory(api, { occurred_at: "2023-05-08T15:56:00.5+02:00" })) as Lived;
    expect(given.occurred_at).toBe("2023-05-08T13:56:00.500Z");
    expect(given.created_at).not.toBe(given.occurred_at);
    const old = (await createMemory(api, { occurred_at: "1969-07-20T20:17:00Z" })) as Lived;
    expect((await ok(api.get(`/v1/memories/${old.id}`))).occurred_at).toBe("1969-07-20T20:17:00.000Z");

    const patched = await ok(api.patch(`/v1/memories/${given.id}`, { occurred_at: "2024-01-01T00:00:00Z" }));
    expect(patched.occurred_at).toBe("2024-01-01T00:00:00.000Z");
    expect(ms(patched.updated_at)).toBeGreaterThanOrEqual(ms(given.updated_at));
    expect((await ok(api.get(`/v1/memories/${given.id}`))).occurred_at).toBe("2024-01-01T00:00:00.000Z");
  });

  test("a bad occurred_at is a 400 naming it, on create, patch and the list filters", async () => {
    const m = await createMemory(api);
    const format = { field: "occurred_at", constraint: "format" };
    const message = "occurred_at has an invalid format (expected date-time)";
    expectError(
      await api.post("/v1/memories", { content: "x", occurred_at: "yesterday" }),
      400,
      "VALIDATION_ERROR",
      message,
      format,
    );
    // It always has one: null is no value for it.
    expectError(
      await api.patch(`/v1/memories/${m.id}`, { occurred_at: null }),
      400,
      "VALIDATION_ERROR",
      "occurred_at must be string",
      { field: "occurred_at", constraint: "type" },
    );
    expectError(
      await api.get("/v1/memories?occurred_after=2024-13-01T00:00:00Z"),
      400,
      "VALIDATION_ERROR",
      "occurred_after has an invalid format (expected date-time)",
      { field: "occurred_after", constraint: "format" },
    );
    expectError(
      await api.get("/v1/memories?sort=occurred"),
      400,
      "VALIDATION_ERROR",
      "sort must be one of created_at, updated_at, occurred_at",
      {
        field: "sort",
        constraint: "enum",
        allowed: ["created_at", "updated_at", "occurred_at"],
      },
    );
  });
});

describe("sort=occurred_at: the thread's order, not the arrival order", () => {
  let api: ApiClient;
  let root: MemoryOut;
  let turns: Lived[] = [];
  let loose: Lived[] = [];

  beforeAll(async () => {
    api = (await tenant()).api;
    root = await createMemory(api, { content: "a conversation" });
    // Arrival order differs from occurred_at; days 2 and 4 are ties, broken by created_at, then id.
    const days = [5, 2, 4, 1, 2, 4, 3, 2];
    for (const [i, day] of days.entries()) {
      turns.push(
        (await createMemory(api, {
          content: `turn ${i}`,
          parent_memory_id: root.id,
          occurred_at: at(day),
          tier: "short",
        })) as Lived,
      );
    }
    // Created together: created_at ties too, then the id decides.
    turns.push(
      ...((await Promise.all(
        [0, 1, 2].map((i) =>
          createMemory(api, { content: `burst ${i}`, parent_memory_id: root.id, occurred_at: at(4), tier: "short" }),
        ),
      )) as Lived[]),
    );
    loose = [root as Lived, ...turns];
  });

  test("a parent's children, asc and desc, every page of every size", async () => {
    const expected = [...turns].sort(threadOrder);
    for (const order of ["asc", "desc"] as const) {
      const want = order === "asc" ? expected : [...expected].reverse();
      expect(
        ids(await listAll(api, `/v1/memories?parent_memory_id=${root.id}&sort=occurred_at&order=${order}`)),
      ).toEqual(ids(want));
      for (const limit of [1, 2, 3, 5]) {
        for (let offset = 0; offset < want.length + 1; offset += limit) {
          const res = await api.get(
            `/v1/memories?parent_memory_id=${root.id}&sort=occurred_at&order=${order}&limit=${limit}&offset=${offset}`,
          );
          expect(ids(res.body.data)).toEqual(ids(want.slice(offset, offset + limit)));
          expect(res.body.meta.total).toBe(want.length);
        }
      }
    }
  });

  test("the whole tenant, and with other filters (the index read directly, or intersected)", async () => {
    const all = [...loose].sort(threadOrder);
    for (const limit of [2, 4]) {
      for (let offset = 0; offset < all.length; offset += limit) {
        const page = await ok(api.get(`/v1/memories?sort=occurred_at&order=asc&limit=${limit}&offset=${offset}`));
        expect(ids(page)).toEqual(ids(all.slice(offset, offset + limit)));
      }
    }
    const short = all.filter((m) => m.tier === "short");
    expect(ids(await listAll(api, "/v1/memories?sort=occurred_at&order=desc&tier=short"))).toEqual(
      ids([...short].reverse()),
    );
    const kids = all.filter((m) => m.parent_memory_id !== null);
    expect(ids(await listAll(api, "/v1/memories?sort=occurred_at&order=asc&root=false"))).toEqual(ids(kids));
  });

  test("occurred_after / occurred_before: exclusive, with any sort, combined with created_at bounds", async () => {
    const inside = (m: Lived) => ms(m.occurred_at) > ms(at(2)) && ms(m.occurred_at) < ms(at(5));
    const q = `occurred_after=${at(2)}&occurred_before=${at(5)}`;
    const byOccurred = await listAll(api, `/v1/memories?${q}&sort=occurred_at&order=asc`);
    expect(ids(byOccurred)).toEqual(ids(loose.filter(inside).sort(threadOrder)));
    const byCreated = await listAll(api, `/v1/memories?${q}&sort=created_at&order=asc&parent_memory_id=${root.id}`);
    expect(new Set(ids(byCreated))).toEqual(new Set(ids(turns.filter(inside))));
    for (let i = 1; i < byCreated.length; i++)
      expect(ms(byCreated[i].created_at)).toBeGreaterThanOrEqual(ms(byCreated[i - 1].created_at));

    const cut = turns[4]!.created_at;
    const both = await listAll(api, `/v1/memories?${q}&created_after=${cut}&sort=occurred_at`);
    const want = loose
      .filter((m) => inside(m) && ms(m.created_at) > ms(cut))
      .sort(threadOrder)
      .reverse();
    expect(ids(both)).toEqual(ids(want));
    const none = await api.get(`/v1/memories?occurred_before=${at(1)}`);
    expect(none.body.meta.total).toBe(0);
  });

  test("a patched occurred_at moves the memory in its thread", async () => {
    const { api: own } = await tenant();
    const parent = await createMemory(own);
    const a = await createMemory(own, { parent_memory_id: parent.id, occurred_at: at(1) });
    const b = await createMemory(own, { parent_memory_id: parent.id, occurred_at: at(2) });
    const c = await createMemory(own, { parent_memory_id: parent.id, occurred_at: at(3) });
    const path = `/v1/memories?parent_memory_id=${parent.id}&sort=occurred_at&order=asc`;
    expect(ids(await listAll(own, path))).toEqual([a.id, b.id, c.id]);
    await ok(own.patch(`/v1/memories/${a.id}`, { occurred_at: at(2, 30) }));
    expect(ids(await listAll(own, path))).toEqual([b.id, a.id, c.id]);
    // Moved to another thread, it takes its place there by occurred_at.
    const other = await createMemory(own);
    const d = await createMemory(own, { parent_memory_id: other.id, occurred_at: at(9) });
    await ok(own.patch(`/v1/memories/${c.id}`, { parent_memory_id: other.id }));
    expect(ids(await listAll(own, `/v1/memories?parent_memory_id=${other.id}&sort=occurred_at&order=asc`))).toEqual([
      c.id,
      d.id,
    ]);
  });
});
