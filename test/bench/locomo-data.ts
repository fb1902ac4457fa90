import { existsSync, readFileSync } from "node:fs";

/**
 * LoCoMo (Maharana et al., ACL 2024) in the shape the retrieval benchmark needs. The data set is
 * CC BY-NC 4.0 and never copied into this repository: it is read from ../shared/bench/locomo/ or a path
 * given on the command line. Format and measure: ../shared/bench/locomo/README.md.
 */
export interface Turn {
  diaId: string;
  speaker: string;
  content: string;
}
export interface Session {
  index: number;
  dateTime: string;
  turns: Turn[];
}
export interface Question {
  question: string;
  category: number;
  evidence: string[];
}
export interface Conversation {
  id: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
}

export const CATEGORY_NAMES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
};

/** Turn content as the README prescribes: "<speaker>: <text>" plus " [shares <caption>]" for images. */
export const turnContent = (t: { speaker: string; text: string; blip_caption?: string }) =>
  `${t.speaker}: ${t.text}${t.blip_caption ? ` [shares ${t.blip_caption}]` : ""}`;

/** Session root content: who talks and when; the date anchors "yesterday" in its turns. */
export const sessionContent = (c: { speakers: [string, string] }, s: Session) =>
  `Conversation between ${c.speakers[0]} and ${c.speakers[1]}, session ${s.index}, ${s.dateTime}`;

/** Evidence ids, repaired as the README says: split on ; , and spaces, accept `D:?(\d+):0*(\d+)`. */
export function parseEvidence(raw: unknown[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const item of raw) {
    for (const part of String(item).split(/[;,\s]+/)) {
      const m = /^D:?(\d+):0*(\d+)$/.exec(part.trim());
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (known.has(id)) out.add(id);
    }
  }
  return [...out];
}

export const DEFAULT_LOCOMO_PATH = new URL("../../../shared/bench/locomo/locomo-public.json", import.meta.url).pathname;

export function loadLocomo(path = DEFAULT_LOCOMO_PATH): Conversation[] | null {
  if (!existsSync(path)) return null;
  const raw = JSON.parse(readFileSync(path, "utf8")) as any[];
  return raw.map((c) => {
    const conv = c.conversation;
    const sessions: Session[] = [];
    for (let i = 1; conv[`session_${i}`] !== undefined || conv[`session_${i + 1}`] !== undefined; i++) {
      const turns = conv[`session_${i}`];
      if (!Array.isArray(turns) || turns.length === 0) continue;
      sessions.push({
        index: i,
        dateTime: String(conv[`session_${i}_date_time`] ?? ""),
        turns: turns.map((t: any) => ({
          diaId: String(t.dia_id),
          speaker: String(t.speaker),
          content: turnContent(t),
        })),
      });
    }
    const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
    const questions: Question[] = [];
    for (const q of c.qa as any[]) {
      const evidence = parseEvidence(q.evidence ?? [], known);
      if (evidence.length > 0) questions.push({ question: String(q.question), category: Number(q.category), evidence });
    }
    return { id: String(c.sample_id), speakers: [String(conv.speaker_a), String(conv.speaker_b)], sessions, questions };
  });
}

/** Share of the evidence turns found in the first k results. */
export function recallAt(k: number, ranked: string[], evidence: string[]): number {
  const top = new Set(ranked.slice(0, k));
  return evidence.filter((e) => top.has(e)).length / evidence.length;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A session's date ("1:56 pm on 8 May, 2023") in ms since the epoch (UTC), or null when it does not parse. */
export function sessionTime(dateTime: string): number | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(dateTime);
  if (!m) return null;
  const month = MONTHS.indexOf(m[5]!.slice(0, 3).toLowerCase());
  if (month < 0) return null;
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}
