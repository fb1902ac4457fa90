import { createHash } from "node:crypto";

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
