import type { Memory } from "../types.ts";

/**
 * How a LangGraph item lives in the service. One store is a root memory (`external_id` "lg:<store>"); each
 * namespace a child of it ("lg:<store>:ns:<sha-256 of the namespace>"); each item a child of its namespace
 * ("lg:<store>:item:<sha-256 of namespace and key>"), so `get` and `put` find an item by its unique `external_id`,
 * lists page through a namespace exactly, and the namespaces are the store root's children. An item's memory
 * carries the value in its metadata as JSON text (any depth round-trips), the namespace and key, and one key per
 * namespace prefix (`lg_prefix_1`: ["a"], `lg_prefix_2`: ["a", "b"]) that search's metadata equality filter
 * narrows by. Its content is the text to search by meaning: the indexed fields of the value.
 */
export const KIND = { item: "langgraph_item", namespace: "langgraph_namespace", store: "langgraph_store" } as const;

export interface ItemMetadata {
  lg_kind: typeof KIND.item;
  lg_store: string;
  lg_namespace: string[];
  lg_key: string;
  /** The value as JSON text. */
  lg_value: string;
}

export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export const storeExternalId = (store: string) => `lg:${store}`;
export const namespaceExternalId = async (store: string, namespace: string[]) =>
  `lg:${store}:ns:${await sha256(JSON.stringify(namespace))}`;
export const itemExternalId = async (store: string, namespace: string[], key: string) =>
  `lg:${store}:item:${await sha256(JSON.stringify([namespace, key]))}`;

/** The metadata filter of search that keeps one store's items under a namespace prefix. */
export function prefixFilter(store: string, prefix: string[]): Record<string, unknown> {
  const filter: Record<string, unknown> = { lg_kind: KIND.item, lg_store: store };
  if (prefix.length > 0) filter[`lg_prefix_${prefix.length}`] = prefix;
  return filter;
}

export function itemMetadata(store: string, namespace: string[], key: string, value: object): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    lg_kind: KIND.item,
    lg_store: store,
    lg_namespace: namespace,
    lg_key: key,
    lg_value: JSON.stringify(value),
  };
  for (let depth = 1; depth <= namespace.length; depth++) metadata[`lg_prefix_${depth}`] = namespace.slice(0, depth);
  return metadata;
}

export interface StoredItem {
  value: Record<string, any>;
  key: string;
  namespace: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The item a memory holds, or null when the memory is not one of this store's items. */
export function toItem(memory: Memory, store: string): StoredItem | null {
  const meta = memory.metadata as Partial<ItemMetadata>;
  if (meta.lg_kind !== KIND.item || meta.lg_store !== store || typeof meta.lg_value !== "string") return null;
  return {
    value: JSON.parse(meta.lg_value),
    key: String(meta.lg_key),
    namespace: meta.lg_namespace ?? [],
    createdAt: new Date(memory.created_at),
    updatedAt: new Date(memory.updated_at),
  };
}

/**
 * The text of a value at a LangGraph field path ("$" the whole value, "a.b", "list[*].text", "list[0]",
 * "list[-1]"), as LangGraph's own stores extract what they embed.
 */
export function textsAt(value: unknown, path: string): string[] {
  if (path === "$") return [JSON.stringify(value)];
  let current: unknown[] = [value];
  for (const token of path.split(".")) {
    const match = /^([^[\]]*)((?:\[[^\]]*\])*)$/.exec(token);
    if (!match) return [];
    const [, field, brackets] = match;
    if (field) current = current.map((v) => (v && typeof v === "object" ? (v as any)[field] : undefined));
    for (const [, index] of (brackets ?? "").matchAll(/\[([^\]]*)\]/g)) {
      current = current.flatMap((v) => {
        if (!Array.isArray(v)) return [];
        if (index === "*") return v;
        const i = Number(index);
        return Number.isInteger(i) ? [v[i < 0 ? v.length + i : i]] : [];
      });
    }
  }
  return current.flatMap((v) => {
    if (v === undefined || v === null) return [];
    return [typeof v === "object" ? JSON.stringify(v) : String(v)];
  });
}

/** LangGraph's search filter on an item's value: equality, or its $eq/$ne/$gt/$gte/$lt/$lte/$in/$nin operators. */
export function matchesFilter(value: Record<string, any>, filter: Record<string, any> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([field, wanted]) => {
    const actual = value[field];
    const isOps =
      wanted !== null &&
      typeof wanted === "object" &&
      !Array.isArray(wanted) &&
      Object.keys(wanted).every((op) => ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"].includes(op));
    if (!isOps) return sameJson(actual, wanted);
    return Object.entries(wanted as Record<string, any>).every(([op, operand]) => {
      switch (op) {
        case "$eq":
          return sameJson(actual, operand);
        case "$ne":
          return !sameJson(actual, operand);
        case "$gt":
          return Number(actual) > Number(operand);
        case "$gte":
          return Number(actual) >= Number(operand);
        case "$lt":
          return Number(actual) < Number(operand);
        case "$lte":
          return Number(actual) <= Number(operand);
        case "$in":
          return Array.isArray(operand) && operand.some((o) => sameJson(actual, o));
        default:
          return !Array.isArray(operand) || !operand.some((o) => sameJson(actual, o));
      }
    });
  });
}

/** Equality of JSON values; an item's value went through JSON, so objects compare by content. */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A namespace matches a prefix or suffix condition; "*" matches any one label. */
export function namespaceMatches(namespace: string[], type: "prefix" | "suffix", path: string[]): boolean {
  if (path.length > namespace.length) return false;
  const start = type === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === "*" || label === namespace[start + i]);
}
