import type { Memory } from "../../contract/memories";

export type Format = "text" | "markdown";

/** One memory in a context, and the thread (root id) it belongs to. */
export interface Piece {
  memory: Memory;
  role: "match" | "ancestor" | "neighbor";
  score: number | null;
  thread: string;
}

/** "2024-05-08T13:56:07.123Z" → "2024-05-08 13:56 UTC": what a reader (or an LLM) needs of a date. */
export const shortDate = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A memory's line, dated when it happened (occurred_at). */
export function renderLine(m: Pick<Memory, "content" | "occurred_at">, format: Format): string {
  if (format === "markdown") return `- **${shortDate(m.occurred_at)}** ${m.content.replace(/\n/g, "\n  ")}`;
  return `[${shortDate(m.occurred_at)}] ${m.content}`;
}

export const renderHeader = (n: number, format: Format) =>
  format === "markdown" ? `## Thread ${n}` : `--- Thread ${n} ---`;

const ms = (iso: string) => Date.parse(iso);

/** A thread's order: occurred_at, then created_at, then id. */
const chronological = (a: Piece, b: Piece) =>
  ms(a.memory.occurred_at) - ms(b.memory.occurred_at) ||
  ms(a.memory.created_at) - ms(b.memory.created_at) ||
  (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0);

/**
 * Threads in order of their best match (most relevant first), memories in the thread's order (when they
 * happened) inside a thread, a blank line between threads. Returns the text and the pieces in that order.
 */
export function render(
  pieces: Piece[],
  format: Format,
  lines: (p: Piece) => string = (p) => renderLine(p.memory, format),
): { text: string; ordered: Piece[] } {
  const threads = new Map<string, { best: number; pieces: Piece[] }>();
  for (const p of pieces) {
    let t = threads.get(p.thread);
    if (!t) threads.set(p.thread, (t = { best: -1, pieces: [] }));
    t.pieces.push(p);
    if (p.score !== null && p.score > t.best) t.best = p.score;
  }
  const order = [...threads.values()].sort((a, b) => b.best - a.best);
  const blocks: string[] = [];
  const ordered: Piece[] = [];
  order.forEach((t, i) => {
    t.pieces.sort(chronological);
    ordered.push(...t.pieces);
    blocks.push([renderHeader(i + 1, format), ...t.pieces.map(lines)].join("\n"));
  });
  return { text: blocks.join("\n\n"), ordered };
}
