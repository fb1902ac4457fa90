import { Type as T, type TSchema } from "@sinclair/typebox";
import { validationError } from "./errors";
import type { Operation } from "./op";

/** Limits of client-supplied `metadata` (memories and entities alike). */
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 5;

/**
 * Key names refused at every level of metadata: code that copies or merges a client's object by
 * assignment (`out[key] = value`) would set a prototype or shadow one, and no client needs them.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export const Metadata = (opts: { description?: string } = {}) =>
  T.Record(T.String(), T.Unknown(), {
    description:
      `Free-form JSON object; at most ${METADATA_MAX_BYTES} bytes serialized (UTF-8) and ` +
      `${METADATA_MAX_DEPTH} levels deep (the object itself is level 1); ` +
      "no key, at any level, named `__proto__`, `constructor` or `prototype`.",
    ...opts,
  });

/**
 * Nesting depth of a JSON value: the top object is 1, each nested object or array adds 1. It never
 * descends more than `limit` + 1 levels, so absurdly deep input costs nothing (and cannot overflow the stack).
 */
export function jsonDepth(value: unknown, limit: number): number {
  if (value === null || typeof value !== "object") return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value as object)) {
    deepest = Math.max(deepest, jsonDepth(child, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}

/** Size and depth cannot be expressed in JSON Schema; this checks them with the same error vocabulary. */
export function checkMetadata(metadata: unknown, field = "metadata"): void {
  if (metadata === undefined || metadata === null) return;
  // Depth first: it is bounded work, and serializing very deep input is not.
  if (jsonDepth(metadata, METADATA_MAX_DEPTH) > METADATA_MAX_DEPTH) {
    throw validationError(field, "max_depth", `${field} must be at most ${METADATA_MAX_DEPTH} levels deep`, {
      max: METADATA_MAX_DEPTH,
    });
  }
  const reserved = reservedKeyAt(metadata, field);
  if (reserved !== null) {
    const message = `${reserved} uses a reserved key name (__proto__, constructor and prototype are refused)`;
    throw validationError(reserved, "reserved_key", message);
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata), "utf8");
  if (bytes > METADATA_MAX_BYTES) {
    throw validationError(field, "max_bytes", `${field} must be at most ${METADATA_MAX_BYTES} bytes serialized`, {
      max: METADATA_MAX_BYTES,
    });
  }
}

/** The dotted path of the first reserved key in `value` (walked without recursion), or null. */
export function reservedKeyAt(value: unknown, field: string): string | null {
  const stack: [unknown, string][] = [[value, field]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, path] = next;
    if (node === null || typeof node !== "object") continue;
    for (const [key, child] of Object.entries(node)) {
      if (!Array.isArray(node) && RESERVED_KEYS.has(key)) return `${path}.${key}`;
      stack.push([child, `${path}.${key}`]);
    }
  }
  return null;
}

/**
 * A validator that then checks the metadata limits of the value it returns: the one way a memory's or an entity's
 * metadata is checked, wherever it arrives (an operation's input, an import line).
 */
export function checkingMetadata<V>(validate: (input: unknown) => V): (input: unknown) => V {
  return (input) => {
    const value = validate(input);
    checkMetadata((value as { metadata?: unknown }).metadata);
    return value;
  };
}

/**
 * An operation whose input carries `metadata`: its validator also checks the metadata limits, so the
 * rule holds wherever the op is validated (the calling bus and the serving service).
 */
export function withMetadataLimits<I extends TSchema, O extends TSchema>(operation: Operation<I, O>): Operation<I, O> {
  return { ...operation, validate: checkingMetadata(operation.validate) };
}
