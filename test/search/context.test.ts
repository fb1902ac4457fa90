import { describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer";
import { createMemory, ok, tenant, type MemoryOut } from "../memories/memory-helpers";
import { expectError } from "../envelope-helpers";
import { word } from "./search-helpers";
import type { ApiClient } from "../api";

const context = async (api: ApiClient, body: Record<string, unknown>) => ok(api.post("/v1/context", body));
const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** A conversation: root + 5 turns; turn 2 holds the unique word. */
async function conversation(api: ApiClient, w: string) {
  const root = await createMemory(api, { content: "Trip planning chat", content_type: "conversation", tier: "long" });
  const turns: MemoryOut[] = [];
  const lines = [
    "Ana: hello there",
    "Bo: are we still going?",
    `Ana: yes, the ${w} leaves at nine`,
    "Bo: great, I'll bring snacks",
    "Ana: see you then",
  ];
  for (const content of lines)
    turns.push(
      await createMemory(api, { content, parent_memory_id: root.id, content_type: "conversation", tier: "short" }),
    );
  return { root, turns };
}

describe("POST /v1/context: validation", () => {
  const cases: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ["query missing", {}, "query is required", { field: "query", constraint: "required" }],
    [
      "max_tokens 0",
      { query: "x", max_tokens: 0 },
      "max_tokens must be >= 1",
      { field: "max_tokens", constraint: "minimum", min: 1 },
    ],
    [
      "max_tokens too big",
      { query: "x", max_tokens: 32_001 },
      "max_tokens must be <= 32000",
      { field: "max_tokens", constraint: "maximum", max: 32000 },
    ],
    [
      "limit 101",
      { query: "x", limit: 101 },
      "limit must be <= 100",
      { field: "limit", constraint: "maximum", max: 100 },
    ],
    [
      "neighbors -1",
      { query: "x", neighbors: -1 },
      "neighbors must be >= 0",
      { field: "neighbors", constraint: "minimum", min: 0 },
    ],
    [
      "neighbors 6",
      { query: "x", neighbors: 6 },
      "neighbors must be <= 5",
      { field: "neighbors", constraint: "maximum", max: 5 },
    ],
    [
      "include_ancestors",
      { query: "x", include_ancestors: "yes" },
      "include_ancestors must be boolean",
      { field: "include_ancestors", constraint: "type" },
    ],
    [
      "format",
      { query: "x", format: "html" },
      "format must be one of text, markdown",
      { field: "format", constraint: "enum", allowed: ["text", "markdown"] },
    ],
    [
      "a filter",
      { query: "x", tier: "xl" },
      "tier must be one of short, medium, long",
      { field: "tier", constraint: "enum", allowed: ["short", "medium", "long"] },
    ],
  ];
  for (const [name, body, message, details] of cases) {
    test(name, async () => {
      const { api } = await tenant();
      expectError(await api.post("/v1/context", body), 400, "VALIDATION_ERROR", message, details);
    });
  }
});

describe("POST /v1/context", () => {
  test("the match with its thread root and neighbours, chronological, each once with its date", async () => {
    const { api } = await tenant();
    const w = word();
    const { root, turns } = await conversation(api, w);
    const data = await context(api, { query: `when does the ${w} leave?`, limit: 1 });
    expect(data.memories.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [root.id, "ancestor"],
      [turns[1]!.id, "neighbor"],
      [turns[2]!.id, "match"],
      [turns[3]!.id, "neighbor"],
    ]);
    const match = data.memories[2];
    expect(match).toEqual({
      ...(await ok(api.get(`/v1/memories/${turns[2]!.id}`))),
      role: "match",
      score: expect.any(Number),
    });
    expect(data.memories[0].score).toBeNull();
    expect(data.context).toBe(
      [
        "--- Thread 1 ---",
        ...[root, turns[1]!, turns[2]!, turns[3]!].map((m) => `[${day(m.created_at)}] ${m.content}`),
      ].join("\n"),
    );
    expect(data.token_count).toBe(countTokens(data.context));
    expect(data.truncated).toBe(false);
    expect(data.omitted).toEqual([]);
  });

  test("include_ancestors false, neighbors 0 and 2, markdown", async () => {
    const { api } = await tenant();
    const w = word();
    const { root, turns } = await conversation(api, w);
    const bare = await context(api, { query: w, limit: 1, include_ancestors: false, neighbors: 0 });
    expect(bare.memories.map((m: { id: string }) => m.id)).toEqual([turns[2]!.id]);
    const wide = await context(api, { query: w, limit: 1, neighbors: 2, format: "markdown" });
    expect(wide.memories.map((m: { id: string }) => m.id)).toEqual([root.id, ...turns.map((t) => t.id)]);
    expect(wide.context.split("\n")[0]).toBe("## Thread 1");
    expect(wide.context).toContain(`- **${day(turns[4]!.created_at)}** ${turns[4]!.content}`);
  });

  test("max_tokens: what does not fit is omitted, lowest scores first, and reported", async () => {
    const { api } = await tenant();
    const w = word();
    for (let i = 0; i < 6; i++)
      await createMemory(api, {
        content: `${w} ${i}: ${"a fairly long sentence about travel plans and packing lists ".repeat(3 + i)}`,
      });
    const full = await context(api, { query: w, max_tokens: 32_000 });
    expect(full.truncated).toBe(false);
    const budget = Math.floor(full.token_count / 2);
    const part = await context(api, { query: w, max_tokens: budget });
    expect(part.token_count).toBeLessThanOrEqual(budget);
    expect(part.token_count).toBe(countTokens(part.context));
    expect(part.truncated).toBe(true);
    expect(part.omitted.length).toBeGreaterThan(0);
    const keptScores = part.memories.map((m: { score: number }) => m.score);
    const omittedScores = part.omitted.map((o: { score: number }) => o.score);
    expect(part.omitted.every((o: { role: string }) => o.role === "match")).toBe(true);
    expect(Math.min(...keptScores)).toBeGreaterThanOrEqual(Math.min(...omittedScores));
    expect(part.memories.length + part.omitted.length).toBe(full.memories.length);
  });

  test("filters apply to the matches; nothing found is an empty context", async () => {
    const { api } = await tenant();
    const w = word();
    await createMemory(api, { content: `${w} short one`, tier: "short" });
    const long = await createMemory(api, { content: `${w} long one`, tier: "long" });
    const data = await context(api, { query: w, tier: "long" });
    expect(data.memories.map((m: { id: string }) => m.id)).toEqual([long.id]);
    const none = await context(api, { query: w, parent_memory_id: long.id });
    expect(none).toEqual({ context: "", memories: [], token_count: 0, truncated: false, omitted: [] });
  });
});
