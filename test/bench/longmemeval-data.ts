import { existsSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

/**
 * LongMemEval_S (Wu et al., ICLR 2025; MIT) in the shape the retrieval benchmark needs. The data is never
 * copied into this repository: it is read from ../shared/bench/longmemeval/ or a path given on the command
 * line. Format and measure: ../shared/bench/longmemeval/README.md.
 */
export interface LmeTurn {
  role: string;
  content: string;
  hasAnswer: boolean;
}
export interface LmeSession {
  id: string;
  /** "2023/05/20 (Sat) 00:31" as the data gives it. */
  date: string;
  turns: LmeTurn[];
}
export interface LmeQuestion {
  id: string;
  type: string;
  question: string;
  answerSessions: string[];
  sessions: LmeSession[];
}

export const DEFAULT_LME_PATH = new URL(
  "../../../shared/bench/longmemeval/longmemeval-s-public.jsonl.gz",
  import.meta.url,
).pathname;

/** The questions with evidence (abstention questions, ids ending in `_abs`, have none and are skipped). */
export function loadLongMemEval(path = DEFAULT_LME_PATH): LmeQuestion[] | null {
  if (!existsSync(path)) return null;
  const text = gunzipSync(readFileSync(path)).toString("utf8");
  const out: LmeQuestion[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    if (String(q.question_id).endsWith("_abs")) continue;
    out.push({
      id: String(q.question_id),
      type: String(q.question_type),
      question: String(q.question),
      answerSessions: (q.answer_session_ids as unknown[]).map(String),
      sessions: (q.haystack_sessions as any[][]).map((turns, i) => ({
        id: String(q.haystack_session_ids[i]),
        date: String(q.haystack_dates[i]),
        turns: turns.map((t) => ({
          role: String(t.role),
          content: String(t.content),
          hasAnswer: t.has_answer === true,
        })),
      })),
    });
  }
  return out;
}

/** "2023/05/20 (Sat) 00:31" → ms since the epoch (UTC), or null. */
export function lmeTime(date: string): number | null {
  const m = /^(\d{4})\/(\d{2})\/(\d{2})\D+(\d{2}):(\d{2})/.exec(date);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) : null;
}

/** A fixed pseudo-random order (by a hash of the id), so any prefix (`--limit`) is a fair sample. */
export function shuffled<T extends { id: string }>(items: T[]): T[] {
  const key = (id: string) => {
    let h = 2166136261;
    for (const c of `lme:${id}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    return h >>> 0;
  };
  return [...items].sort((a, b) => key(a.id) - key(b.id) || (a.id < b.id ? -1 : 1));
}

/**
 * One session as the README's measure posts it in one `POST /v1/memories/batch`: its root (the session and its
 * date), then its turns ("<role>: <content>", occurred_at = the session's date + the turn's index in seconds).
 */
export function sessionBatchItems(s: LmeSession, at: number) {
  return [
    {
      content: `Chat session ${s.id} on ${s.date}`,
      content_type: "conversation",
      occurred_at: new Date(at).toISOString(),
    },
    ...s.turns.map((t, i) => ({
      content: `${t.role}: ${t.content}`,
      content_type: "conversation",
      parent_ref: 0,
      occurred_at: new Date(at + (i + 1) * 1000).toISOString(),
    })),
  ];
}

/** A turn's id in the measure: `<session id>#<index in the session>`. */
export const turnId = (session: string, index: number) => `${session}#${index}`;

/** Where a ranked memory belongs: its session, and its turn id (null for a session's root memory). */
export interface Located {
  session: string;
  turn: string | null;
}

export const LME_METRICS = [
  "session any@5",
  "session all@5",
  "session any@10",
  "session all@10",
  "turn any@5",
  "turn any@10",
  "turn all@10",
] as const;

const recall = (top: string[], evidence: Set<string>, k: number, all: boolean) => {
  const found = new Set(top.slice(0, k).filter((x) => evidence.has(x)));
  return (all ? found.size === evidence.size : found.size > 0) ? 1 : 0;
};

/**
 * The README's measure of one question's ranked memories, in LME_METRICS' order: sessions ranked by the first
 * appearance of any of their memories; turns are the ranked memories that are turns (roots left out).
 */
export function lmeRecalls(ranked: Located[], answerSessions: string[], evidenceTurns: string[]): number[] {
  const sessions: string[] = [];
  for (const r of ranked) if (!sessions.includes(r.session)) sessions.push(r.session);
  const turns = ranked.flatMap((r) => (r.turn ? [r.turn] : []));
  const s = new Set(answerSessions);
  const t = new Set(evidenceTurns);
  const turnR = (k: number, all: boolean) => (t.size === 0 ? NaN : recall(turns, t, k, all));
  return [
    recall(sessions, s, 5, false),
    recall(sessions, s, 5, true),
    recall(sessions, s, 10, false),
    recall(sessions, s, 10, true),
    turnR(5, false),
    turnR(10, false),
    turnR(10, true),
  ];
}

/** Per question type and overall: n and each metric's mean in percent (NaN, a question without turns, left out). */
export function summariseLme(rows: { type: string; r: number[] }[]) {
  const groups = new Map<string, number[][]>();
  for (const row of rows) {
    for (const key of [row.type, "overall"]) groups.set(key, [...(groups.get(key) ?? []), row.r]);
  }
  const out: Record<string, { n: number; at: number[] }> = {};
  for (const [key, rs] of [...groups].sort(([a], [b]) =>
    a === "overall" ? 1 : b === "overall" ? -1 : a < b ? -1 : 1,
  )) {
    out[key] = {
      n: rs.length,
      at: LME_METRICS.map((_, i) => {
        const xs = rs.map((r) => r[i]!).filter((x) => !Number.isNaN(x));
        return xs.length ? (100 * xs.reduce((a, b) => a + b, 0)) / xs.length : NaN;
      }),
    };
  }
  return out;
}
