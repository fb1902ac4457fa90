import { describe, expect, test } from "bun:test";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { createTag } from "./tag-helpers";

/** DELETE /v1/tags/:id (what it does to the memories that carried the tag: tag-links-counts.test.ts). */

describe("DELETE /v1/tags/:id", () => {
  test("deletes permanently: data.deleted true, then 404; the name is free again", async () => {
    const { api: own } = await tenant();
    const t = await createTag(own, { name: "doomed" });
    const res = await own.delete(`/v1/tags/${t.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: t.id, deleted: true });
    expectError(await own.get(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await own.delete(`/v1/tags/${t.id}`), 404, "NOT_FOUND", "Tag not found");
    expectError(await own.delete("/v1/tags/zzz"), 404, "NOT_FOUND", "Tag not found");
    expect((await own.get("/v1/tags")).body.meta.total).toBe(0);
    expect((await own.post("/v1/tags", { name: "Doomed" })).status).toBe(200);
  });
});
