import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../contract/errors";
import { codeOf, ctx, row, setup, snapshot } from "./handler.fixture";

const space = { tenant: "acme", env: "test" };

describe("memory handlers: a memory's life", () => {
  test("create hands the life to the store, reports the superseded memory, registers the expiry", async () => {
    const created = row("new-id", { expires_at: "2030-01-01T00:00:00.000Z", supersedes: "old" });
    const old = row("old", { superseded_by: "new-id" }, 2);
    const { h, calls, changes } = setup({ createMemory: { ...created, superseded: old }, registerExpiry: undefined });
    const input = { content: "hi", occurred_at: "2020-01-01T00:00:00Z", ttl_seconds: 60, supersedes: "old" };
    await h.create(input, ctx);
    expect(calls[0]!.args[4]).toEqual({ occurred_at: "2020-01-01T00:00:00Z", ttl_seconds: 60, supersedes: "old" });
    expect(changes).toEqual([
      [
        { type: "created", memory: snapshot(created) },
        { type: "updated", memory: snapshot(old), changed: ["superseded_by", "valid_to"] },
      ],
    ]);
    // After the commit, never before it.
    expect(calls.map((c) => c.name)).toEqual(["createMemory", "registerExpiry"]);
    expect(calls[1]!.args).toEqual([space, Date.parse("2030-01-01T00:00:00.000Z")]);
  });

  test("no expiry, nothing registered; expires_at with ttl_seconds is refused before the store", async () => {
    const plain = setup({ createMemory: row("new-id") });
    await plain.h.create({ content: "hi" }, ctx);
    expect(plain.calls.map((c) => c.name)).toEqual(["createMemory"]);
    const both = setup({});
    const refused = await codeOf(both.h.create({ content: "x", ttl_seconds: 5, expires_at: null }, ctx));
    expect(refused).toEqual(["VALIDATION_ERROR", { field: "ttl_seconds", constraint: "exclusive" }]);
    expect(both.calls).toEqual([]);
  });

  test("a registration that fails is logged; the committed write still answers", async () => {
    const created = row("new-id", { expires_at: "2030-01-01T00:00:00.000Z" });
    const { h, changes } = setup({ createMemory: created, registerExpiry: new ServiceError("STORAGE_FULL", "full") });
    const logged: string[] = [];
    const log = { ...ctx.log, error: (msg: string) => void logged.push(msg) };
    expect(await h.create({ content: "hi", ttl_seconds: 5 }, { ...ctx, log })).toEqual(created.memory);
    expect(changes.length).toBe(1);
    expect(logged).toEqual(["expiry not registered"]);
  });

  test("update registers a changed expiry, and reports the replaced memory whose valid_to followed", async () => {
    const updated = row("m", { expires_at: "2031-01-01T00:00:00.000Z" }, 3);
    const old = row("old", { superseded_by: "m", valid_to: "2020-01-01T00:00:00.000Z" }, 4);
    const { h, calls, changes } = setup({
      updateMemory: { row: updated, changed: ["occurred_at", "expires_at"], superseded: old },
    });
    await h.update({ id: "m", occurred_at: "2020-01-01T00:00:00Z", expires_at: "2031-01-01T00:00:00Z" }, ctx);
    expect(calls[0]!.args[2]).toEqual({ occurred_at: "2020-01-01T00:00:00Z", expires_at: "2031-01-01T00:00:00Z" });
    expect(changes).toEqual([
      [
        { type: "updated", memory: snapshot(updated), changed: ["occurred_at", "expires_at"] },
        { type: "updated", memory: snapshot(old), changed: ["valid_to"] },
      ],
    ]);
    expect(calls.map((c) => c.name)).toEqual(["updateMemory", "registerExpiry"]);
    const cleared = setup({ updateMemory: { row: row("m"), changed: ["expires_at"], superseded: null } });
    await cleared.h.update({ id: "m", expires_at: null }, ctx);
    expect(cleared.calls.map((c) => c.name)).toEqual(["updateMemory"]);
  });

  test("delete reports the memories a removal changed besides the deleted ones", async () => {
    const restored = row("old", {}, 5);
    const { h, changes } = setup({
      deleteMemory: {
        deleted: [{ id: "m", version: 2 }],
        updates: [{ row: restored, changed: ["superseded_by", "valid_to"] }],
      },
    });
    await h.remove({ id: "m" }, ctx);
    expect(changes).toEqual([
      [
        { type: "deleted", id: "m", version: 2, reason: "deleted" },
        { type: "updated", memory: snapshot(restored), changed: ["superseded_by", "valid_to"] },
      ],
    ]);
  });

  test("siblings: the store's memories around one, in thread order", async () => {
    const { h, calls } = setup({ siblings: { before: [row("a")], after: [row("c"), row("d")] } });
    expect(await h.siblings({ id: "b", count: 2 }, ctx)).toEqual({
      before: [row("a").memory],
      after: [row("c").memory, row("d").memory],
    });
    expect(calls[0]!.args).toEqual([space, "b", 2]);
  });
});
