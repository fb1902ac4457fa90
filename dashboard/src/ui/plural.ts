/** English plural rules: "one" for exactly 1, "other" for everything else (0 too: "0 tags"). */
const rules = new Intl.PluralRules("en");

/** Whether a count takes the singular: `isOne(1)` only. Verbs that agree with a count use it too. */
export const isOne = (n: number): boolean => rules.select(n) === "one";

/**
 * The plural of an English noun the dashboard counts: a consonant + y becomes -ies (memory, entity, reply,
 * delivery), a sibilant ending takes -es (match), every other noun -s (tag, key, event, error).
 */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** A noun in the number a count needs: `noun(1, "memory")` → "memory", `noun(2, "memory")` → "memories". */
export const noun = (n: number, singular: string, plural = pluralOf(singular)): string =>
  isOne(n) ? singular : plural;

/**
 * A count with its noun in the right number, the count grouped by thousands: `plural(1, "tag")` → "1 tag",
 * `plural(0, "entity")` → "0 entities", `plural(1234, "request")` → "1,234 requests". Every count the dashboard
 * shows with a noun goes through here.
 */
export const plural = (n: number, singular: string, pluralForm?: string): string =>
  `${n.toLocaleString("en")} ${noun(n, singular, pluralForm)}`;
