import { describe, expect, test } from "bun:test";
import { ServiceError } from "../../contract/errors";
import { codeOf, ctx, row, setup, snapshot } from "./handler.fixture";
import { NO_PLAN_QUOTAS } from "../storage";
import { storageLimitsOf } from "./memories";

describe("memory handlers", () => {
  test("create applies the documented defaults, scopes the store to the caller and reports the change", async () => {
    const { h, calls, changes } = setup({ createMemory: row("new-id") });
    await h.create({ content: "hi" }, ctx);
    expect(calls[0]).toEqual({
      name: "createMemory",
      args: [
        { tenant: "acme", env: "test" },
        "new-id",
        {
          content: "hi",
          content_type: "text",
          tier: "medium",
          memory_nature: "episodic",
          parent: null,
          external_id: null,
          metadata: {},
        },
        64,
        {},
        { memories: 0, bytes: 0 },
      ],
    });
    expect(changes).toEqual([[{ type: "created", memory: snapshot(row("new-id")) }]]);
  });

  test("create and update carry the storage limits of the caller's plan; configured plans read config", async () => {
    const { h, calls } = setup({ createMemory: row("new-id"), updateMemory: { row: row("m"), changed: [] } });
    const free = { ...ctx, caller: { ...ctx.caller!, plan: "free" as const } };
    await h.create({ content: "hi" }, free);
    await h.update({ id: "m", content: "longer" }, free);
    const [create, update] = calls;
    expect(create!.args[5]).toEqual({ memories: 10_000, bytes: 50_000_000 });
    expect(update!.args.at(-1)).toEqual({ memories: 10_000, bytes: 50_000_000 });
    const quotas = { ...NO_PLAN_QUOTAS, QUOTA_ENTERPRISE_MEMORIES: 7 };
    const enterprise = { ...ctx, caller: { ...ctx.caller!, plan: "enterprise" as const } };
    expect(storageLimitsOf(enterprise, { quotas })).toEqual({ memories: 7, bytes: 0 });
    expect(storageLimitsOf(ctx, { quotas })).toEqual({ memories: 0, bytes: 0 });
  });

  test("create hands the request's Idempotency-Key to the store, which claims it in the same step", async () => {
    const { h, calls } = setup({ createMemory: row("new-id") });
    const keyClaim = { key: "idem:{t1:live}:k:abc", value: "R\nfp\ntoken", leaseMs: 60_000 };
    await h.create({ content: "hi" }, { ...ctx, keyClaim });
    await h.create({ content: "hi" }, ctx);
    expect(calls.map((c) => c.args[6])).toEqual([keyClaim, undefined]);
  });

  test("a refusal of the store is the handler's answer, and nothing is reported", async () => {
    const details = { field: "parent_memory_id", constraint: "exists" };
    const { h, changes } = setup({ createMemory: new ServiceError("VALIDATION_ERROR", "no parent", details) });
    expect(await codeOf(h.create({ content: "x" }, ctx))).toEqual(["VALIDATION_ERROR", details]);
    expect(changes).toEqual([]);
  });

  test("update: an empty patch reads without writing; `parent` is reported as parent_memory_id", async () => {
    const empty = setup({ getMemories: [row("m")] });
    expect(await empty.h.update({ id: "m" }, ctx)).toEqual(row("m").memory);
    expect(empty.calls.map((c) => c.name)).toEqual(["getMemories"]);

    const moved = setup({ updateMemory: { row: row("m", {}, 2), changed: ["parent", "tier"] } });
    await moved.h.update({ id: "m", parent_memory_id: null, tier: "long" }, ctx);
    expect(moved.calls[0]!.args[2]).toEqual({ tier: "long", parent: null });
    expect(moved.changes).toEqual([
      [{ type: "updated", memory: snapshot(row("m", {}, 2)), changed: ["parent_memory_id", "tier"] }],
    ]);
  });

  test("delete reports deleted_count only with cascade; orphans are reported as updated", async () => {
    const plain = setup({
      deleteMemory: {
        deleted: [{ id: "m", version: 3 }],
        updates: [{ row: row("kid", {}, 2), changed: ["parent_memory_id"] }],
      },
    });
    expect(await plain.h.remove({ id: "m" }, ctx)).toEqual({ id: "m", deleted: true });
    expect(plain.changes).toEqual([
      [
        { type: "deleted", id: "m", version: 3, reason: "deleted" },
        { type: "updated", memory: snapshot(row("kid", {}, 2)), changed: ["parent_memory_id"] },
      ],
    ]);

    const cascade = setup({
      deleteMemory: {
        deleted: [
          { id: "m", version: 3 },
          { id: "kid", version: 2 },
        ],
        updates: [],
      },
    });
    expect(await cascade.h.remove({ id: "m", cascade: true }, ctx)).toEqual({
      id: "m",
      deleted: true,
      deleted_count: 2,
    });
    expect(
      await codeOf(
        setup({ deleteMemory: new ServiceError("NOT_FOUND", "Memory not found") }).h.remove({ id: "m" }, ctx),
      ),
    ).toEqual(["NOT_FOUND", undefined]);
  });

  test("a public operation without a caller is refused", async () => {
    const { h } = setup({});
    expect(await codeOf(h.get({ id: "m" }, { ...ctx, caller: null }))).toEqual(["UNAUTHORIZED", undefined]);
  });
});
