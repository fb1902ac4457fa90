import { stemmer } from "stemmer";
import { eng } from "stopword";

/**
 * Lexical analysis shared by indexing and querying (they must agree exactly):
 * NFKC + lower case → words of letters/digits (apostrophes inside words dropped, so "Caroline's" →
 * "caroline", "don't" → "dont") → English stop words removed → Porter stem.
 * Numbers stay (years and counts are often what a query is about).
 */
const EXTRA_STOP_WORDS = [
  "she",
  "hers",
  "its",
  "us",
  "our",
  "ours",
  "yours",
  "does",
  "doing",
  "done",
  "will",
  "just",
  "so",
  "s",
  "t",
];
export const STOP_WORDS: ReadonlySet<string> = new Set([...eng, ...EXTRA_STOP_WORDS]);

/** Longer "words" are ids, hashes or base64: useless as terms and bad as Redis key names. */
const MAX_TERM_LENGTH = 40;
const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const APOSTROPHE_RE = /['’]/g;
const POSSESSIVE_RE = /['’]s$/;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.normalize("NFKC").toLowerCase().matchAll(WORD_RE)) {
    const word = match[0].replace(POSSESSIVE_RE, "").replace(APOSTROPHE_RE, "");
    if (word.length === 0 || word.length > MAX_TERM_LENGTH || STOP_WORDS.has(word)) continue;
    out.push(stemmer(word));
  }
  return out;
}

/** Term → count in one text, plus its length in terms (BM25's document length). */
export function termFrequencies(text: string): { tf: Map<string, number>; length: number } {
  const tokens = tokenize(text);
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: tokens.length };
}

/** Distinct query terms in first-seen order (a repeated query word does not count twice). */
export const queryTerms = (query: string): string[] => [...new Set(tokenize(query))];

/** A capitalised word that does not open the query: "Caroline", "Paris" (not "What", "LGBTQ" or "I"). */
const NAME_RE = /(?<!^\s*)\b\p{Lu}\p{Ll}+(?:['’]s)?\b/gu;

/** The query's names (capitalised words past its first), as index terms: "What did Caroline…" → ["carolin"]. */
export const queryNames = (query: string): string[] => [
  ...new Set([...query.normalize("NFKC").matchAll(NAME_RE)].flatMap((m) => tokenize(m[0]))),
];
