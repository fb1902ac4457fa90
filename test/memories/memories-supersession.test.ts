import { describe, expect, test } from "bun:test";
import { eventually } from "../search/search-helpers";
import { ok, tenant, UNKNOWN_ID } from "./memory-helpers";
import { expectError } from "../envelope-helpers";
import { inMs, make, read, watchEvents } from "./lifecycle-helpers";

/**
 * Supersession: `supersedes` on create marks an older memory replaced (superseded_by, valid_to = the new
 * one's occurred_at); naming any memory of a chain replaces its latest; when the replacing memory goes,
 * the one it replaced is the latest again.
 */
describe("supersedes", () => {
  test("marks the old memory replaced, valid until the new one occurred; the change is an event", async () => {
    const { api, tenant: t } = await tenant();
    const events = await watchEvents(t);
    try {
      const old = await make(api, { content: "Ann lives in Oslo", occurred_at: "2021-03-01T00:00:00Z" });
      const now = await make(api, {
        content: "Ann moved to Bergen",
        supersedes: old.id,
        occurred_at: "2024-06-01T12:00:00Z",
      });
      expect(now).toMatchObject({ supersedes: old.id, superseded_by: null, valid_to: null });
      const replaced = (await read(api, old.id))!;
      expect(replaced).toMatchObject({ superseded_by: now.id, valid_to: "2024-06-01T12:00:00.000Z", supersedes: null });
      expect(Date.parse(replaced.updated_at)).toBeGreaterThanOrEqual(Date.parse(now.created_at));
      await eventually(async () =>
        expect(events.of("updated", old.id).map((e) => e.changed)).toEqual([["superseded_by", "valid_to"]]),
      );
    } finally {
      await events.close();
    }
  });

  test("chains are followed: naming an old memory replaces the latest of its chain", async () => {
    const { api } = await tenant();
    const a = await make(api, { content: "v1" });
    const b = await make(api, { content: "v2", supersedes: a.id });
    const c = await make(api, { content: "v3", supersedes: a.id });
    expect(c.supersedes).toBe(b.id);
    expect(await read(api, a.id)).toMatchObject({ superseded_by: b.id });
    expect(await read(api, b.id)).toMatchObject({ superseded_by: c.id, valid_to: c.occurred_at });
    expect(await read(api, c.id)).toMatchObject({ superseded_by: null });
  });

  test("valid_to follows a new occurred_at of the memory that replaced it", async () => {
    const { api } = await tenant();
    const a = await make(api);
    const b = await make(api, { supersedes: a.id });
    await ok(api.patch(`/v1/memories/${b.id}`, { occurred_at: "2030-01-01T00:00:00Z" }));
    expect((await read(api, a.id))!.valid_to).toBe("2030-01-01T00:00:00.000Z");
  });

  test("when the replacing memory is deleted or expires, the replaced one is the latest again", async () => {
    const { api, tenant: t } = await tenant();
    const a = await make(api, { content: "v1" });
    const b = await make(api, { content: "v2", supersedes: a.id });
    await ok(api.delete(`/v1/memories/${b.id}`));
    expect(await read(api, a.id)).toMatchObject({ superseded_by: null, valid_to: null });

    const events = await watchEvents(t);
    try {
      const c = await make(api, { content: "v2 for a while", supersedes: a.id, expires_at: inMs(500) });
      expect(await read(api, a.id)).toMatchObject({ superseded_by: c.id });
      // Gone at once; a new memory naming the chain replaces the latest one still there (a).
      await eventually(async () => expect(await read(api, c.id)).toBeNull(), 5000, 20);
      const d = await make(api, { content: "v3", supersedes: a.id });
      expect(d.supersedes).toBe(a.id);
      await eventually(async () => expect(events.of("deleted", c.id).length).toBe(1), 10_000, 50);
      // c's purge leaves a as d replaced it.
      expect(await read(api, a.id)).toMatchObject({ superseded_by: d.id });
    } finally {
      await events.close();
    }
  });

  test("refusals: an unknown, other tenant's or expired memory; a malformed id", async () => {
    const { api } = await tenant();
    const foreign = await make((await tenant()).api);
    const exists = { field: "supersedes", constraint: "exists" };
    for (const id of [UNKNOWN_ID, foreign.id])
      expectError(
        await api.post("/v1/memories", { content: "x", supersedes: id }),
        400,
        "VALIDATION_ERROR",
        "supersedes must name an existing memory",
        exists,
      );
    expectError(
      await api.post("/v1/memories", { content: "x", supersedes: "nope" }),
      400,
      "VALIDATION_ERROR",
      "supersedes has an invalid format (expected uuid)",
      { field: "supersedes", constraint: "format" },
    );
    expectError(
      await api.patch(`/v1/memories/${foreign.id}`, { supersedes: UNKNOWN_ID }),
      400,
      "VALIDATION_ERROR",
      "supersedes is not an accepted field",
      { field: "supersedes", constraint: "unknown_field" },
    );
    expect((await api.get("/v1/memories?limit=1")).body.meta.total).toBe(0);
  });
});
