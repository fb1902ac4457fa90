import { createHash } from "node:crypto";
import { canonicalJson } from "../../kit/canonical-json";

/**
 * Metadata equality is indexed as opaque tokens, one per top-level key/value pair: any JSON value
 * compares exactly (nested objects too, whatever their key order), and neither the client's key
 * names nor its values ever appear inside a FILTER expression or a key name.
 */
export const metadataToken = (key: string, value: unknown): string =>
  createHash("sha256").update(key).update("\u0000").update(canonicalJson(value)).digest("hex").slice(0, 20);
