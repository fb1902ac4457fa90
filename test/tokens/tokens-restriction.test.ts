import { beforeAll, describe, expect, test } from "bun:test";
import { testStack } from "../harness";
import { apiClient, newTenant, type ApiClient } from "../api";
import type { Stack } from "../../scripts/stack/launch";
import { createdMemory, mintedToken } from "./token-helpers";

/** A token's restriction on writes, enforced by the services: what creates, patches, deletes and links may do. */
let stack: Stack;
beforeAll(async () => {
  stack = await testStack();
}, 90_000);

const tokenFor = (api: ApiClient, restrict: Record<string, unknown>) => mintedToken(stack.baseUrl, api, restrict);
const create = createdMemory;

describe("metadata restriction", () => {
  test("creates get the restricted metadata; another value, or a parent outside, is a 403", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "u_2's", metadata: { user_id: "u_2" } });
    const tok = await tokenFor(t.api, { metadata: { user_id: "u_1" } });
    const made = await tok.post("/v1/memories", { content: "mine", metadata: { topic: "tea" } });
    expect(made.status).toBe(200);
    expect(made.body.data.metadata).toEqual({ topic: "tea", user_id: "u_1" });
    const conflict = await tok.post("/v1/memories", { content: "x", metadata: { user_id: "u_2" } });
    expect(conflict.status).toBe(403);
    expect(conflict.body.error.details.field).toBe("metadata");
    const under = await tok.post("/v1/memories", { content: "x", parent_memory_id: theirs });
    expect(under.status).toBe(403);
    expect(under.body.error.details.field).toBe("parent_memory_id");
    const child = await tok.post("/v1/memories", { content: "child", parent_memory_id: made.body.data.id });
    expect(child.status).toBe(200);
  });

  test("get, patch and delete outside are 404; a patch cannot move a memory out", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const theirs = await create(t.api, { content: "u_2's", metadata: { user_id: "u_2" } });
    const mine = await create(t.api, { content: "u_1's", metadata: { user_id: "u_1" } });
    const tok = await tokenFor(t.api, { metadata: { user_id: "u_1" } });
    expect((await tok.get(`/v1/memories/${theirs}`)).status).toBe(404);
    expect((await tok.patch(`/v1/memories/${theirs}`, { content: "hacked" })).status).toBe(404);
    expect((await tok.delete(`/v1/memories/${theirs}`)).status).toBe(404);
    expect((await tok.get(`/v1/memories/${mine}`)).status).toBe(200);
    expect((await tok.patch(`/v1/memories/${mine}`, { metadata: { user_id: "u_2" } })).status).toBe(403);
    expect((await tok.patch(`/v1/memories/${mine}`, { parent_memory_id: theirs })).status).toBe(403);
    const kept = await tok.patch(`/v1/memories/${mine}`, { metadata: { mood: "calm" } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.metadata).toEqual({ mood: "calm", user_id: "u_1" });
    expect((await tok.delete(`/v1/memories/${mine}?cascade=true`)).status).toBe(403);
    expect((await t.api.get(`/v1/memories/${theirs}`)).body.data.content).toBe("u_2's");
  });

  test("lists see only matching memories, with an exact total; tag attach touches only memories inside", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    for (let i = 0; i < 3; i++) await create(t.api, { content: `u1 ${i}`, metadata: { user_id: "u_1" } });
    const theirs = await create(t.api, { content: "u2", metadata: { user_id: "u_2" } });
    const tok = await tokenFor(t.api, { metadata: { user_id: "u_1" } });
    const page = await tok.get("/v1/memories?limit=2");
    expect(page.body.meta.total).toBe(3);
    expect(page.body.data.map((m: any) => m.metadata.user_id)).toEqual(["u_1", "u_1"]);
    const tag = (await t.api.post("/v1/tags", { name: "shared" })).body.data.id;
    expect((await tok.post(`/v1/memories/${theirs}/tags`, { tag_ids: [tag] })).status).toBe(404);
    expect((await tok.delete(`/v1/memories/${theirs}/tags/${tag}`)).status).toBe(404);
    expect((await tok.get(`/v1/tags/${tag}`)).status).toBe(200); // tags are readable
  });
});

describe("subtree restriction", () => {
  test("a token sees the subtree only; a new memory needs a parent inside it", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const root = await create(t.api, { content: "root" });
    const child = await create(t.api, { content: "child", parent_memory_id: root });
    const other = await create(t.api, { content: "other" });
    const tok = await tokenFor(t.api, { root_memory_id: root });
    expect((await tok.get(`/v1/memories/${child}`)).status).toBe(200);
    expect((await tok.get(`/v1/memories/${other}`)).status).toBe(404);
    expect((await tok.get("/v1/memories")).body.data.map((m: any) => m.content).sort()).toEqual(["child", "root"]);
    expect((await tok.post("/v1/memories", { content: "loose" })).status).toBe(403);
    expect((await tok.post("/v1/memories", { content: "deep", parent_memory_id: child })).status).toBe(200);
    expect((await tok.patch(`/v1/memories/${child}`, { parent_memory_id: null })).status).toBe(403);
    expect((await tok.patch(`/v1/memories/${child}`, { parent_memory_id: other })).status).toBe(403);
  });

  test("ancestors and the parent stop at the subtree's root", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const top = await create(t.api, { content: "top" });
    const root = await create(t.api, { content: "root", parent_memory_id: top });
    const leaf = await create(t.api, { content: "leaf", parent_memory_id: root });
    const minted = await t.api.post("/v1/tokens", { restrict: { root_memory_id: root } });
    const res = await fetch(`${stack.baseUrl}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${minted.body.data.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        query: `query($l: ID!, $r: ID!) { leaf: memory(id: $l) { ancestors { content } }
          root: memory(id: $r) { content parent { content } ancestors { content } } }`,
        variables: { l: leaf, r: root },
      }),
    });
    const { data } = (await res.json()) as { data: any };
    expect(data.leaf.ancestors).toEqual([{ content: "root" }]);
    expect(data.root).toEqual({ content: "root", parent: null, ancestors: [] });
  });
});

describe("tag restriction", () => {
  test("a token sees memories carrying one of its tags and cannot detach them", async () => {
    const t = await newTenant(stack.baseUrl, stack.adminKey);
    const tag = (await t.api.post("/v1/tags", { name: "public" })).body.data.id;
    const shown = await create(t.api, { content: "shown" });
    await create(t.api, { content: "hidden" });
    await t.api.post(`/v1/memories/${shown}/tags`, { tag_ids: [tag] });
    const tok = await tokenFor(t.api, { tag_ids: [tag] });
    expect((await tok.get("/v1/memories")).body.data.map((m: any) => m.content)).toEqual(["shown"]);
    expect((await tok.delete(`/v1/memories/${shown}/tags/${tag}`)).status).toBe(403);
    expect((await tok.post("/v1/memories", { content: "new" })).status).toBe(403);
  });
});
