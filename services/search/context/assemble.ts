import { countTokens } from "gpt-tokenizer";
import { render, renderHeader, renderLine, type Format, type Piece } from "./render";

/** One match with the memories it brings (ancestors first, then neighbours), all of its thread. */
export interface Bundle {
  match: Piece;
  ancestors: Piece[];
  neighbors: Piece[];
}

export interface Assembled {
  context: string;
  pieces: Piece[];
  tokenCount: number;
  truncated: boolean;
  omitted: { id: string; role: Piece["role"]; score: number | null }[];
}

export type CountTokens = (text: string) => number;

const CUT_MARK = " […]";

/**
 * Fits matches and their thread context into `maxTokens`: matches are taken best first, each with
 * its ancestors and neighbours if they fit, else with its ancestors only, else alone, else left out
 * (so the lowest scores are dropped first; a smaller, lower match may still fit after a big one did
 * not). Token cost is estimated per line while choosing, and the final string is counted exactly.
 * If not even the best match fits, its content is cut to fit.
 */
export function assemble(
  bundles: Bundle[],
  maxTokens: number,
  format: Format,
  count: CountTokens = countTokens,
): Assembled {
  const ordered = [...bundles].sort((a, b) => (b.match.score ?? 0) - (a.match.score ?? 0));
  const chosen = new Map<string, Piece>();
  const threads = new Set<string>();
  const lineCost = new Map<string, number>();
  const cost = (p: Piece) => {
    let c = lineCost.get(p.memory.id);
    if (c === undefined) lineCost.set(p.memory.id, (c = count(renderLine(p.memory, format)) + 1));
    return c;
  };
  const headerCost = count(renderHeader(99, format)) + 2;
  let used = 0;

  const tryAdd = (pieces: Piece[]): boolean => {
    const fresh = pieces.filter(
      (p) => !chosen.has(p.memory.id) || (p.role === "match" && chosen.get(p.memory.id)!.role !== "match"),
    );
    const newThreads = new Set(fresh.filter((p) => !threads.has(p.thread)).map((p) => p.thread));
    const extra = fresh.reduce((s, p) => s + (chosen.has(p.memory.id) ? 0 : cost(p)), 0) + newThreads.size * headerCost;
    if (used + extra > maxTokens) return false;
    used += extra;
    for (const p of fresh) chosen.set(p.memory.id, p);
    for (const t of newThreads) threads.add(t);
    return true;
  };

  for (const b of ordered) {
    if (!tryAdd([b.match, ...b.ancestors, ...b.neighbors]) && !tryAdd([b.match, ...b.ancestors])) tryAdd([b.match]);
  }

  let pieces = [...chosen.values()];
  let { text, ordered: inOrder } = render(pieces, format);
  let tokens = count(text);
  // The per-line estimate can be off by a few tokens: drop the lowest matches until the exact count fits.
  while (tokens > maxTokens && pieces.some((p) => p.role === "match")) {
    const lowest = pieces.filter((p) => p.role === "match").sort((a, b) => (a.score ?? 0) - (b.score ?? 0))[0]!;
    const keep = new Set(
      ordered
        .filter((b) => b.match.memory.id !== lowest.memory.id && chosen.has(b.match.memory.id))
        .flatMap((b) => [b.match, ...b.ancestors, ...b.neighbors].map((p) => p.memory.id)),
    );
    chosen.delete(lowest.memory.id);
    pieces = pieces.filter((p) => p !== lowest && keep.has(p.memory.id));
    ({ text, ordered: inOrder } = render(pieces, format));
    tokens = count(text);
  }

  let cut = false;
  if (pieces.length === 0 && ordered.length > 0) {
    const best = ordered[0]!.match;
    const fitted = cutToFit(best, maxTokens, format, count);
    if (fitted) {
      pieces = [fitted.piece];
      ({ text, ordered: inOrder } = render(pieces, format));
      tokens = count(text);
      cut = true;
    }
  }

  const included = new Set(pieces.map((p) => p.memory.id));
  const omitted = new Map<string, Assembled["omitted"][number]>();
  for (const b of ordered) {
    for (const p of [b.match, ...b.ancestors, ...b.neighbors]) {
      if (!included.has(p.memory.id) && !omitted.has(p.memory.id))
        omitted.set(p.memory.id, { id: p.memory.id, role: p.role, score: p.score });
    }
  }
  return {
    context: pieces.length > 0 ? text : "",
    pieces: inOrder,
    tokenCount: pieces.length > 0 ? tokens : 0,
    truncated: cut || omitted.size > 0,
    omitted: [...omitted.values()],
  };
}

/** The longest prefix of the content (binary search on characters) whose rendering fits. */
function cutToFit(p: Piece, maxTokens: number, format: Format, count: CountTokens): { piece: Piece } | null {
  const content = p.memory.content;
  const fits = (n: number) =>
    count(render([{ ...p, memory: { ...p.memory, content: content.slice(0, n) + CUT_MARK } }], format).text) <=
    maxTokens;
  if (!fits(0)) return null;
  let lo = 0;
  let hi = content.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return { piece: { ...p, memory: { ...p.memory, content: content.slice(0, lo) + CUT_MARK } } };
}
