import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { expectError } from "../envelope-helpers";
import { ENTITY_TYPES, ids, listAll, ok, tenant } from "../memories/memory-helpers";

/** GET /v1/entities: newest first, pages, search and type filters, and the query's validation. */
let api: ApiClient;

beforeAll(async () => {
  api = (await tenant()).api;
});

describe("GET /v1/entities", () => {
  test("newest first, paginated, exact totals; search: case-insensitive partial name match; type filters", async () => {
    const t = (await tenant()).api;
    const made = [];
    for (const [name, type] of [
      ["Ada Lovelace", "person"],
      ["Charles Babbage", "person"],
      ["Analytical Engine", "product"],
      ["London", "place"],
      ["Royal Society", "organization"],
      ["Ada (language)", "product"],
      ["Zürich", "place"],
    ]) {
      made.push(await ok(t.post("/v1/entities", { name, type })));
      await Bun.sleep(2);
    }
    const newest = ids(made).reverse();
    expect(ids(await listAll(t, "/v1/entities"))).toEqual(newest);
    const page = await t.get("/v1/entities?limit=2&offset=2");
    expect(ids(page.body.data)).toEqual(newest.slice(2, 4));
    expect(page.body.meta).toMatchObject({ total: 7, limit: 2, offset: 2, has_more: true });

    const q = async (qs: string) => {
      const res = await t.get(`/v1/entities?${qs}`);
      return { names: res.body.data.map((e: { name: string }) => e.name), total: res.body.meta.total };
    };
    expect(await q("search=ada")).toEqual({ names: ["Ada (language)", "Ada Lovelace"], total: 2 });
    expect(await q("search=ADA")).toEqual({ names: ["Ada (language)", "Ada Lovelace"], total: 2 });
    expect(await q("search=on")).toEqual({ names: ["London"], total: 1 });
    expect(await q("search=gin")).toEqual({ names: ["Analytical Engine"], total: 1 });
    expect(await q("search=zür")).toEqual({ names: ["Zürich"], total: 1 });
    expect(await q("search=ZÜR")).toEqual({ names: ["Zürich"], total: 1 });
    expect(await q("type=person")).toEqual({ names: ["Charles Babbage", "Ada Lovelace"], total: 2 });
    expect(await q("type=product&search=ada")).toEqual({ names: ["Ada (language)"], total: 1 });
    expect(await q("type=event")).toEqual({ names: [], total: 0 });
    expect(await q("search=nothing-like-this")).toEqual({ names: [], total: 0 });
    expect(await q("search=a&limit=2&offset=1")).toEqual({ names: ["Royal Society", "Analytical Engine"], total: 5 });
  });

  test("invalid query parameters → 400", async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ["limit=0", "limit must be >= 1", { field: "limit", constraint: "minimum", min: 1 }],
      ["limit=101", "limit must be <= 100", { field: "limit", constraint: "maximum", max: 100 }],
      ["limit=2.5", "limit must be an integer", { field: "limit", constraint: "type" }],
      ["offset=-3", "offset must be >= 0", { field: "offset", constraint: "minimum", min: 0 }],
      [
        "type=animal",
        `type must be one of ${ENTITY_TYPES.join(", ")}`,
        { field: "type", constraint: "enum", allowed: ENTITY_TYPES },
      ],
      ["search=", "search must not be empty", { field: "search", constraint: "required" }],
      ["sort=name", "sort is not an accepted field", { field: "sort", constraint: "unknown_field" }],
    ];
    for (const [qs, message, details] of cases)
      expectError(await api.get(`/v1/entities?${qs}`), 400, "VALIDATION_ERROR", message, details);
  });
});
