import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectNotFound, ok, tenant } from "../memories/memory-helpers";

/** DELETE /v1/entities/:id (what it does to linked memories: entities-links.test.ts). */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("DELETE /v1/entities/:id", () => {
  test("→ {id, deleted: true}; then 404; the name is free again", async () => {
    const e = await ok(api.post("/v1/entities", { name: "Doomed", type: "event" }));
    expect(await ok(api.delete(`/v1/entities/${e.id}`))).toEqual({ id: e.id, deleted: true });
    expectNotFound(await api.get(`/v1/entities/${e.id}`), "Entity");
    expectNotFound(await api.delete(`/v1/entities/${e.id}`), "Entity");
    expectNotFound(await api.delete("/v1/entities/bad"), "Entity");
    expect((await ok(api.post("/v1/entities", { name: "doomed", type: "event" }))).name).toBe("doomed");
  });
});
