import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { tenant } from "../memories/memory-helpers";
import { createTag } from "./tag-helpers";

/** GET /v1/tags: sorting, search and pages over a tenant of six tags, and the query's validation. */

describe("GET /v1/tags", () => {
  let own: ApiClient;
  const names = ["beta", "Alpha", "gamma", "alphabet", "Delta", "epsilon"];
  beforeAll(async () => {
    own = (await tenant()).api;
    for (const name of names) {
      await createTag(own, { name });
      await Bun.sleep(2); // distinct created_at
    }
  });
  const listNames = async (q: string) => {
    const res = await own.get(`/v1/tags${q}`);
    expect(res.status).toBe(200);
    return res.body.data.map((t: { name: string }) => t.name);
  };

  test("defaults: sorted by name ascending, case-insensitively; limit 50, offset 0, exact total", async () => {
    const res = await own.get("/v1/tags");
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual([
      "Alpha",
      "alphabet",
      "beta",
      "Delta",
      "epsilon",
      "gamma",
    ]);
    expect(res.body.meta).toMatchObject({ total: 6, limit: 50, offset: 0, has_more: false });
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      "color",
      "created_at",
      "description",
      "id",
      "memory_count",
      "name",
      "updated_at",
    ]);
  });

  test("sort and order", async () => {
    expect(await listNames("?order=desc")).toEqual(["gamma", "epsilon", "Delta", "beta", "alphabet", "Alpha"]);
    expect(await listNames("?sort=created_at")).toEqual(names);
    expect(await listNames("?sort=created_at&order=desc")).toEqual([...names].reverse());
    expect(await listNames("?sort=name&order=asc")).toEqual(["Alpha", "alphabet", "beta", "Delta", "epsilon", "gamma"]);
  });

  test("search is a case-insensitive partial match on the name, with an exact total", async () => {
    const res = await own.get("/v1/tags?search=ALPH");
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(["Alpha", "alphabet"]);
    expect(res.body.meta.total).toBe(2);
    expect(await listNames("?search=ta")).toEqual(["beta", "Delta"]);
    expect(await listNames("?search=nothing")).toEqual([]);
  });

  test("pagination: limit, offset, has_more", async () => {
    const p1 = await own.get("/v1/tags?limit=4");
    expect(p1.body.data).toHaveLength(4);
    expect(p1.body.meta).toMatchObject({ total: 6, limit: 4, offset: 0, has_more: true });
    const p2 = await own.get("/v1/tags?limit=4&offset=4");
    expect(p2.body.data.map((t: { name: string }) => t.name)).toEqual(["epsilon", "gamma"]);
    expect(p2.body.meta).toMatchObject({ total: 6, limit: 4, offset: 4, has_more: false });
    const p3 = await own.get("/v1/tags?offset=10");
    expect(p3.body.data).toEqual([]);
    expect(p3.body.meta).toMatchObject({ total: 6, has_more: false });
    expect((await own.get("/v1/tags?limit=100")).body.meta.limit).toBe(100);
  });

  test("invalid query values are 400", async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ["limit=0", "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
      ["limit=101", "limit must be <= 100", { field: "limit", constraint: "maximum", max: 100 }],
      ["limit=abc", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["limit=2.5", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["offset=-1", "offset must be >= 0", { field: "offset", constraint: "minimum", min: 0 }],
      [
        "sort=popularity",
        "sort must be one of name, memory_count, created_at",
        { field: "sort", constraint: "enum", allowed: ["name", "memory_count", "created_at"] },
      ],
      ["order=up", "order must be one of asc, desc", { field: "order", constraint: "enum", allowed: ["asc", "desc"] }],
      ["colour=red", "colour is not an accepted field", { field: "colour", constraint: "unknown_field" }],
    ];
    for (const [q, message, details] of cases)
      expectError(await own.get(`/v1/tags?${q}`), 400, "VALIDATION_ERROR", message, details);
  });

  test("the limit of 50 by default with more tags than that", async () => {
    const { api: many } = await tenant();
    await Promise.all(
      Array.from({ length: 55 }, (_, i) => many.post("/v1/tags", { name: `t${String(i).padStart(2, "0")}` })),
    );
    const res = await many.get("/v1/tags");
    expect(res.body.data).toHaveLength(50);
    expect(res.body.meta).toMatchObject({ total: 55, limit: 50, offset: 0, has_more: true });
    expect(res.body.data[0].name).toBe("t00");
  });
});
