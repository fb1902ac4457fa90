import { createHash } from "node:crypto";

/**
 * The filterable fields of an indexed memory, in one table so the three places that use them cannot
 * disagree: the filter sets of the lexical index (`f:<kind>:<value>`), the vector-set attributes
 * (`.attr`) and the VSIM FILTER expressions built from a request.
 */
export const FIELD_KINDS = {
  tier: { attr: "tier", many: false },
  ct: { attr: "ct", many: false },
  nat: { attr: "nat", many: false },
  parent: { attr: "parent", many: false },
  tag: { attr: "tags", many: true },
  ent: { attr: "ents", many: true },
  meta: { attr: "meta", many: true },
} as const;
export type FieldKind = keyof typeof FIELD_KINDS;

/** The attribute holding created_at in ms, for range filters. */
export const CREATED_ATTR = "ca";

/** Canonical JSON: object keys sorted at every level, so equal values have one spelling. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
    .join(",")}}`;
}

/**
 * Metadata equality is indexed as opaque tokens, one per top-level key/value pair: any JSON value
 * compares exactly (nested objects too, whatever their key order), and neither the client's key
 * names nor its values ever appear inside a FILTER expression or a key name.
 */
export const metadataToken = (key: string, value: unknown): string =>
  createHash("sha256").update(key).update("\u0000").update(canonicalJson(value)).digest("hex").slice(0, 20);

/** What may be quoted inside a FILTER expression: enum values, UUIDs and hex tokens, nothing else. */
const SAFE_LITERAL = /^[A-Za-z0-9_.:-]+$/;
export function literal(value: string): string {
  if (!SAFE_LITERAL.test(value)) throw new Error(`unsafe filter literal: ${JSON.stringify(value)}`);
  return `"${value}"`;
}
