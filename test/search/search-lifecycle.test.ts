import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { ids, listAll, ok, tenant } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";
import { make, ms, type LivedMemory } from "../memories/lifecycle-helpers";
import { searchIds, word } from "./search-helpers";

/**
 * Search and context over a memory's life: occurred_after / occurred_before, latest_only (no memory
 * superseded it) and as_of (valid then: occurred_at <= as_of < valid_to); the context dates and orders a
 * thread by occurred_at, and its neighbours are the thread's.
 */
const at = (year: number) => `${year}-06-01T00:00:00.000Z`;
const sorted = (xs: string[]) => [...xs].sort();

describe("a fact and its corrections", () => {
  let api: ApiClient;
  let w: string;
  let v2020: LivedMemory;
  let v2022: LivedMemory;
  let v2024: LivedMemory;
  /** Every memory of the tenant as stored, the model the filters are checked against. */
  let all: LivedMemory[] = [];

  beforeAll(async () => {
    api = (await tenant()).api;
    w = word();
    v2020 = await make(api, { content: `Ann lives in Oslo ${w}`, occurred_at: at(2020) });
    v2022 = await make(api, { content: `Ann lives in Bergen ${w}`, occurred_at: at(2022), supersedes: v2020.id });
    v2024 = await make(api, { content: `Ann lives in Tromso ${w}`, occurred_at: at(2024), supersedes: v2022.id });
    await make(api, { content: `Ann was born in ${w} land`, occurred_at: at(1990) });
    // Others, so that filters select among more than a handful (and the vector side filters too).
    for (let i = 0; i < 40; i++)
      await make(api, { content: `filler note ${i} about the weather`, occurred_at: at(2000 + (i % 30)) });
    all = await listAll(api, "/v1/memories");
  });

  /** What a search with threshold 0 and room for all answers: every memory passing the filter. */
  const passing = (keep: (m: LivedMemory) => boolean) => sorted(ids(all.filter(keep)));
  const latest = (m: LivedMemory) => m.superseded_by === null;
  const validAt = (iso: string) => (m: LivedMemory) =>
    ms(m.occurred_at) <= ms(iso) && (m.valid_to === null || ms(m.valid_to) > ms(iso));
  const found = async (body: Record<string, unknown>) => sorted(await searchIds(api, { query: w, ...body }));

  test("latest_only: only the memories no other memory superseded; default false keeps all", async () => {
    expect(await found({})).toEqual(passing(() => true));
    expect(await found({ latest_only: true })).toEqual(passing(latest));
    expect(await found({ latest_only: true })).not.toContain(v2022.id);
    expect(await found({ latest_only: false })).toEqual(passing(() => true));
    expect(sorted(await searchIds(api, { query: "*", latest_only: true }))).toEqual(passing(latest));
    expect(await found({ latest_only: true, tier: "medium" })).toEqual(passing(latest));
  });

  test("as_of: the version valid then, and only memories that had occurred by then", async () => {
    for (const iso of [at(1980), at(2019), at(2021), at(2022), "2022-05-31T23:59:59.999Z", at(2030)])
      expect({ iso, found: await found({ as_of: iso }) }).toEqual({ iso, found: passing(validAt(iso)) });
    const chain = [v2020.id, v2022.id, v2024.id];
    expect((await found({ as_of: at(2021) })).filter((id) => chain.includes(id))).toEqual([v2020.id]);
    // valid_to is exclusive: at the instant the correction occurred, the correction holds.
    expect((await found({ as_of: at(2022) })).filter((id) => chain.includes(id))).toEqual([v2022.id]);
    expect(await found({ as_of: at(1980) })).toEqual([]);
    expect(sorted(await searchIds(api, { query: "*", as_of: at(2001) }))).toEqual(passing(validAt(at(2001))));
    expect(await found({ as_of: at(2021), latest_only: true })).toEqual(
      passing((m) => latest(m) && validAt(at(2021))(m)),
    );
  });

  test("occurred_after (inclusive) / occurred_before (exclusive), with other filters", async () => {
    const from = (iso: string) => (m: LivedMemory) => ms(m.occurred_at) >= ms(iso);
    const until = (iso: string) => (m: LivedMemory) => ms(m.occurred_at) < ms(iso);
    expect(await found({ occurred_after: at(2022) })).toEqual(passing(from(at(2022))));
    expect(await found({ occurred_before: at(2022) })).toEqual(passing(until(at(2022))));
    expect(await found({ occurred_after: at(2021), occurred_before: at(2023), latest_only: true })).toEqual(
      passing((m) => from(at(2021))(m) && until(at(2023))(m) && latest(m)),
    );
    expect(await found({ occurred_after: at(2021), occurred_before: at(2023), latest_only: true })).not.toContain(
      v2022.id,
    );
    const created = all.find((m) => m.content === "filler note 20 about the weather")!.created_at;
    expect(await found({ occurred_after: at(2010), created_after: created })).toEqual(
      passing((m) => from(at(2010))(m) && ms(m.created_at) >= ms(created)),
    );
    expectError(
      await api.post("/v1/search", { query: "x", occurred_after: at(2022), occurred_before: at(2022) }),
      400,
      "VALIDATION_ERROR",
      "occurred_before must be later than occurred_after",
      { field: "occurred_before", constraint: "range" },
    );
    expectError(
      await api.post("/v1/context", { query: "x", as_of: "then" }),
      400,
      "VALIDATION_ERROR",
      "as_of has an invalid format (expected date-time)",
      { field: "as_of", constraint: "format" },
    );
  });

  test("with more passing than a query's candidates (the vector side filters itself): only passing ones", async () => {
    const filters: [Record<string, unknown>, (m: LivedMemory) => boolean][] = [
      [{ latest_only: true }, latest],
      [{ as_of: at(2025) }, validAt(at(2025))],
      [{ occurred_after: at(2001) }, (m) => ms(m.occurred_at) >= ms(at(2001))],
      [{ occurred_before: at(2029), latest_only: true }, (m) => ms(m.occurred_at) < ms(at(2029)) && latest(m)],
    ];
    for (const [filter, keep] of filters) {
      const got = await searchIds(api, { query: "weather note", limit: 5, ...filter });
      expect(got).toHaveLength(5);
      expect(got.filter((id) => !passing(keep).includes(id))).toEqual([]);
    }
  });

  test("context takes the same filters", async () => {
    const current = await ok(api.post("/v1/context", { query: w, latest_only: true, limit: 100, max_tokens: 32_000 }));
    expect(sorted(ids(current.memories))).toEqual(passing(latest));
    // Every memory valid then; which of the two naming the word ranks first is the ranking's business.
    const then = await ok(api.post("/v1/context", { query: w, as_of: at(2021), limit: 100, max_tokens: 32_000 }));
    expect(sorted(ids(then.memories))).toEqual(passing(validAt(at(2021))));
    expect(ids(then.memories)).not.toContain(v2022.id);
    expect(then.context).toContain(`[2020-06-01 00:00 UTC] Ann lives in Oslo ${w}`);
  });
});

describe("context: a thread in the order and with the dates its turns happened", () => {
  test("neighbours are the thread's by occurred_at, whatever the arrival; lines dated by occurred_at", async () => {
    const { api } = await tenant();
    const w = word();
    const root = await make(api, { content: "chat with Bo", occurred_at: "2023-05-08T13:00:00Z" });
    const lines = ["Bo: hi", `Bo: the ${w} is fixed`, "Ana: thanks!", "Bo: anytime"];
    // Arrival in reverse: created_at says the opposite of occurred_at.
    const turns: LivedMemory[] = [];
    for (const i of [3, 2, 1, 0])
      turns[i] = await make(api, {
        content: lines[i],
        parent_memory_id: root.id,
        occurred_at: `2023-05-08T13:5${i}:00Z`,
      });
    const out = await ok(api.post("/v1/context", { query: w, limit: 1, neighbors: 1, format: "text" }));
    expect(out.memories.map((m: LivedMemory & { role: string }) => [m.id, m.role])).toEqual([
      [root.id, "ancestor"],
      [turns[0]!.id, "neighbor"],
      [turns[1]!.id, "match"],
      [turns[2]!.id, "neighbor"],
    ]);
    expect(out.context).toBe(
      [
        "--- Thread 1 ---",
        "[2023-05-08 13:00 UTC] chat with Bo",
        "[2023-05-08 13:50 UTC] Bo: hi",
        `[2023-05-08 13:51 UTC] Bo: the ${w} is fixed`,
        "[2023-05-08 13:52 UTC] Ana: thanks!",
      ].join("\n"),
    );
    const wide = await ok(api.post("/v1/context", { query: w, limit: 1, neighbors: 5, include_ancestors: false }));
    expect(ids(wide.memories)).toEqual(ids(turns));
  });
});
