import { validationError } from "../../../services/contract/errors";

/**
 * Deepest nesting accepted in any JSON document a client sends (a REST body, a GraphQL body or its
 * `variables`/`extensions` parameter): the top object or array is level 1. Far more than any
 * operation needs, far less than what overflows the stack of a recursive JSON.stringify.
 */
export const JSON_MAX_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text nests objects and arrays deeper than `max`. Reads the text once, before
 * it is parsed, in a loop (no recursion, no allocation): 1 MiB of `[[[[` costs one pass and stops
 * at bracket `max + 1`. Brackets inside strings do not count; the text need not be valid JSON.
 */
export function jsonTooDeep(text: string, max: number = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Where the string opened at `open` ends (-1: never); indexOf keeps long strings cheap to skip. */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** Refuses JSON text nested deeper than JSON_MAX_DEPTH: 400 `{field, constraint: "max_depth", max}`. */
export function checkJsonDepth(text: string, field: string): void {
  if (!jsonTooDeep(text)) return;
  const message = `${field} must be nested at most ${JSON_MAX_DEPTH} levels deep`;
  throw validationError(field, "max_depth", message, { max: JSON_MAX_DEPTH });
}

/** The same check on JSON carried in query parameters (GraphQL over GET: `variables`, `extensions`). */
export function checkJsonQueryParams(url: string, names: readonly string[]): void {
  const q = url.indexOf("?");
  if (q < 0) return;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of names) for (const value of params.getAll(name)) checkJsonDepth(value, name);
}
