import { describe, expect, test } from "bun:test";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { count, memory, tag } from "./tag-helpers";

/** Links across tenants and environments, and the scope link writes need. */

describe("isolation and scopes", () => {
  test("another tenant's tag cannot be attached or detached; another tenant's memory is 404", async () => {
    const a = await tenant();
    const b = await tenant();
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
    const live = await tenant();
    const sandbox = await tenant({ tenant: live.tenant, environment: "test" });
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
    const owner = await tenant();
    const reader = await tenant({ tenant: owner.tenant, scopes: ["memories:read"] });
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
