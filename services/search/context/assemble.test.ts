import { describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer";
import type { Memory } from "../../contract/memories";
import { memoryFixture } from "../../contract/memory.fixture";
import { assemble, type Bundle } from "./assemble";
import { render, shortDate, type Piece } from "./render";

let clock = Date.parse("2024-03-01T09:00:00.000Z");
const mem = (content: string, over: Partial<Memory> = {}): Memory =>
  memoryFixture(
    { content, content_type: "conversation", tier: "short", ...over },
    new Date((clock += 60_000)).toISOString(),
  );
const piece = (m: Memory, role: Piece["role"], thread: string, score: number | null = null): Piece => ({
  memory: m,
  role,
  score,
  thread,
});

/** A thread: root, then turns; the match is turn `i` with its neighbours i-1 and i+1. */
function thread(n: number, words = 8) {
  const root = mem(`Thread root ${n}`);
  const turns = Array.from({ length: 5 }, (_, i) =>
    mem(`turn ${i} of thread ${n}: ${"lorem ipsum ".repeat(words)}`, { parent_memory_id: root.id }),
  );
  const bundle = (i: number, score: number): Bundle => ({
    match: piece(turns[i]!, "match", root.id, score),
    ancestors: [piece(root, "ancestor", root.id)],
    neighbors: [turns[i - 1], turns[i + 1]].filter((t): t is Memory => !!t).map((t) => piece(t, "neighbor", root.id)),
  });
  return { root, turns, bundle };
}

describe("context assembly", () => {
  test("groups by thread (best match first), chronological inside, each memory once, with its date", () => {
    const a = thread(1);
    const b = thread(2);
    // Two matches in thread a share the root and a neighbour; thread b holds the best match.
    const out = assemble([a.bundle(1, 0.5), a.bundle(2, 0.4), b.bundle(3, 0.9)], 2000, "text");
    expect(out.truncated).toBe(false);
    expect(out.omitted).toEqual([]);
    const ids = out.pieces.map((p) => p.memory.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      b.root.id,
      b.turns[2]!.id,
      b.turns[3]!.id,
      b.turns[4]!.id,
      a.root.id,
      a.turns[0]!.id,
      a.turns[1]!.id,
      a.turns[2]!.id,
      a.turns[3]!.id,
    ]);
    expect(out.pieces.find((p) => p.memory.id === a.turns[2]!.id)!.role).toBe("match");
    expect(out.context.split("\n\n")[0]!.split("\n")[0]).toBe("--- Thread 1 ---");
    expect(out.context).toContain(`[${shortDate(b.turns[3]!.created_at)}] ${b.turns[3]!.content}`);
    expect(out.tokenCount).toBe(countTokens(out.context));
  });

  test("markdown: a heading per thread and a bullet per memory (continuation lines indented)", () => {
    const root = mem("Project plan");
    const m = mem("line one\nline two", { parent_memory_id: root.id });
    const out = assemble(
      [{ match: piece(m, "match", root.id, 0.7), ancestors: [piece(root, "ancestor", root.id)], neighbors: [] }],
      500,
      "markdown",
    );
    expect(out.context).toBe(
      `## Thread 1\n- **${shortDate(root.created_at)}** Project plan\n` +
        `- **${shortDate(m.created_at)}** line one\n  line two`,
    );
  });

  test("the budget holds: lowest matches go first, then a match keeps its ancestors, then it stands alone", () => {
    const t = thread(1, 30);
    const bundles = [t.bundle(1, 0.9), t.bundle(3, 0.3)];
    const full = assemble(bundles, 32_000, "text");
    for (let budget = 1; budget <= full.tokenCount; budget += 7) {
      const out = assemble(bundles, budget, "text");
      expect(out.tokenCount).toBeLessThanOrEqual(budget);
      expect(out.tokenCount).toBe(out.context ? countTokens(out.context) : 0);
      const kept = new Set(out.pieces.map((p) => p.memory.id));
      // The weaker match is never kept at the expense of the stronger one.
      if (kept.has(t.turns[3]!.id)) expect(kept.has(t.turns[1]!.id)).toBe(true);
      for (const o of out.omitted) expect(kept.has(o.id)).toBe(false);
      expect(out.truncated).toBe(out.omitted.length > 0 || out.pieces.some((p) => p.memory.content.endsWith(" […]")));
    }
    const tight = assemble(
      bundles,
      countTokens(render([piece(t.turns[1]!, "match", t.root.id, 0.9)], "text").text) + 20,
      "text",
    );
    expect(tight.pieces.map((p) => p.memory.id)).toContain(t.turns[1]!.id);
    expect(tight.omitted.map((o) => o.id)).toContain(t.turns[3]!.id);
    expect(tight.omitted.find((o) => o.id === t.turns[3]!.id)).toEqual({
      id: t.turns[3]!.id,
      role: "match",
      score: 0.3,
    });
  });

  test("when not even the best match fits, its content is cut to the budget", () => {
    const big = mem("word ".repeat(500));
    const out = assemble([{ match: piece(big, "match", big.id, 0.8), ancestors: [], neighbors: [] }], 60, "text");
    expect(out.truncated).toBe(true);
    expect(out.tokenCount).toBeLessThanOrEqual(60);
    expect(out.tokenCount).toBeGreaterThan(40);
    expect(out.context.endsWith(" […]")).toBe(true);
    expect(out.omitted).toEqual([]);
  });

  test("nothing to assemble is an empty context", () => {
    expect(assemble([], 100, "text")).toEqual({
      context: "",
      pieces: [],
      tokenCount: 0,
      truncated: false,
      omitted: [],
    });
  });
});
