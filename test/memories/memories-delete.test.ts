import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { createMemory, expectNotFound, ok, tenant, UNKNOWN_ID } from "./memory-helpers";

/** DELETE /v1/memories/:id of a single memory (hierarchies and cascades: memories-hierarchy.test.ts). */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("DELETE /v1/memories/:id", () => {
  test("→ {id, deleted: true}; then GET 404 and a second DELETE 404", async () => {
    const m = await createMemory(api);
    expect(await ok(api.delete(`/v1/memories/${m.id}`))).toEqual({ id: m.id, deleted: true });
    expectNotFound(await api.get(`/v1/memories/${m.id}`));
    expectNotFound(await api.delete(`/v1/memories/${m.id}`));
    expectNotFound(await api.patch(`/v1/memories/${m.id}`, { content: "x" }));
  });

  test("unknown or malformed id → 404; cascade must be a boolean", async () => {
    expectNotFound(await api.delete(`/v1/memories/${UNKNOWN_ID}`));
    expectNotFound(await api.delete("/v1/memories/xyz"));
    const m = await createMemory(api);
    expectError(
      await api.delete(`/v1/memories/${m.id}?cascade=maybe`),
      400,
      "VALIDATION_ERROR",
      "cascade must be boolean",
      { field: "cascade", constraint: "type" },
    );
    expectError(
      await api.delete(`/v1/memories/${m.id}?force=true`),
      400,
      "VALIDATION_ERROR",
      "force is not an accepted field",
      { field: "force", constraint: "unknown_field" },
    );
    expect(await ok(api.delete(`/v1/memories/${m.id}?cascade=false`))).toEqual({ id: m.id, deleted: true });
  });

  test("a deleted memory's external_id is free again", async () => {
    const m = await createMemory(api, { external_id: "reuse-me" });
    await ok(api.delete(`/v1/memories/${m.id}`));
    expect(await ok(api.get("/v1/memories?external_id=reuse-me"))).toEqual([]);
    const again = await createMemory(api, { external_id: "reuse-me" });
    expect(again.id).not.toBe(m.id);
  });
});
