import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph";
import type { MemoryServiceClient } from "../client.ts";
import { MemoryServiceError } from "../errors.ts";
import type { Memory } from "../types.ts";
import {
  KIND,
  itemExternalId,
  itemMetadata,
  matchesFilter,
  namespaceExternalId,
  namespaceMatches,
  prefixFilter,
  storeExternalId,
  textsAt,
  toItem,
} from "./langgraph-mapping.ts";

export interface MemoryServiceStoreOptions {
  client: MemoryServiceClient;
  /** Stores of different names share a tenant without seeing each other's items. Default "langgraph". */
  name?: string;
  /** Fields of a value to search by meaning, in LangGraph's path syntax. Default ["$"]: the whole value as JSON. */
  index?: { fields?: string[] };
  /** The tier of the items' memories (its retention default applies to them). Default "long". */
  tier?: "short" | "medium" | "long";
}

/** A search result: an item with the service's relevance score (0..1) when a query ranked it. */
export type MemoryServiceSearchItem = Item & { score?: number };

/** The best matches search by meaning considers: the service's largest search `limit`. */
const MAX_MATCHES = 100;

const refused = (err: unknown, field: string, constraint: string) =>
  err instanceof MemoryServiceError && err.details?.field === field && err.details?.constraint === constraint;

/**
 * LangGraph's long-term memory store on this service: `new StateGraph(...).compile({ store })`, then
 * `config.store` or `getStore()` in nodes. Items are memories (see langgraph-mapping.ts for the layout):
 * `get` and `put` by the item's unique `external_id`, `search` with a `query` through the service's hybrid search
 * (score in `score`), without one page by page through each namespace (most recently updated first), and
 * `filter` on the value with LangGraph's operators.
 */
export class MemoryServiceStore extends BaseStore {
  readonly client: MemoryServiceClient;
  readonly name: string;
  private readonly fields: string[];
  private readonly tier: "short" | "medium" | "long";
  /** Memory ids by external_id, of the store root and its namespaces (items are always looked up). */
  private readonly ids = new Map<string, string>();

  constructor(options: MemoryServiceStoreOptions) {
    super();
    this.client = options.client;
    this.name = options.name ?? "langgraph";
    this.fields = options.index?.fields ?? ["$"];
    this.tier = options.tier ?? "long";
  }

  /** Runs the operations in order, so a read after a write in the same batch sees it. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) results.push(await this.run(op));
    return results as OperationResults<Op>;
  }

  private run(op: Operation): Promise<unknown> {
    // A put answers null in its place, as LangGraph's InMemoryStore does.
    if ("value" in op) return this.putOp(op).then(() => null);
    if ("namespacePrefix" in op) return this.searchOp(op);
    if ("key" in op) return this.getOp(op);
    return this.listNamespacesOp(op);
  }

  private async find(externalId: string): Promise<Memory | null> {
    const page = await this.client.memories.list({ external_id: externalId, limit: 1 });
    return page.items[0] ?? null;
  }

  private async getOp({ namespace, key }: GetOperation): Promise<Item | null> {
    const memory = await this.find(await itemExternalId(this.name, namespace, key));
    return memory && toItem(memory, this.name);
  }

  private async putOp({ namespace, key, value, index }: PutOperation): Promise<void> {
    const externalId = await itemExternalId(this.name, namespace, key);
    const existing = await this.find(externalId);
    if (value === null) {
      if (existing) await this.client.memories.delete(existing.id).catch(ignoreNotFound);
      return;
    }
    const fields = {
      content: this.contentOf(namespace, key, value, index),
      metadata: itemMetadata(this.name, namespace, key, value),
    };
    if (existing) {
      await this.client.memories.update(existing.id, fields);
      return;
    }
    for (let attempt = 0; ; attempt++) {
      const parent = await this.namespaceId(namespace);
      try {
        await this.client.memories.create({
          ...fields,
          external_id: externalId,
          parent_memory_id: parent,
          tier: this.tier,
        });
        return;
      } catch (err) {
        // Another writer created the item first: this put updates it, as it would have a moment later.
        if (refused(err, "external_id", "unique")) {
          const raced = await this.find(externalId);
          if (raced) return void (await this.client.memories.update(raced.id, fields));
        }
        // The namespace's memory was deleted behind this process's cache: it is made again, once.
        if (attempt === 0 && refused(err, "parent_memory_id", "exists")) {
          this.ids.clear();
          continue;
        }
        throw err;
      }
    }
  }

  /** The text search ranks the item by: its indexed fields, else where it lives (it must not be empty). */
  private contentOf(namespace: string[], key: string, value: Record<string, any>, index?: false | string[]) {
    const texts = index === false ? [] : (index ?? this.fields).flatMap((path) => textsAt(value, path));
    const text = texts.join("\n");
    return text.trim() ? text : [...namespace, key].join("/");
  }

  /** A memory's id by its external_id; with `create`, made when missing (a concurrent maker may win). */
  private async nodeId(
    externalId: string,
    create?: () => Promise<Parameters<MemoryServiceClient["memories"]["create"]>[0]>,
  ) {
    const cached = this.ids.get(externalId);
    if (cached) return cached;
    let memory = await this.find(externalId);
    if (!memory && create) {
      try {
        memory = await this.client.memories.create({ ...(await create()), external_id: externalId, expires_at: null });
      } catch (err) {
        if (!refused(err, "external_id", "unique")) throw err;
        memory = await this.find(externalId);
      }
    }
    if (memory) this.ids.set(externalId, memory.id);
    return memory?.id ?? null;
  }

  private rootId(create: boolean) {
    const body = async () => ({
      content: `LangGraph store "${this.name}"`,
      tier: "long" as const,
      metadata: { lg_kind: KIND.store, lg_store: this.name },
    });
    return this.nodeId(storeExternalId(this.name), create ? body : undefined);
  }

  private async namespaceId(namespace: string[]): Promise<string> {
    const id = await this.nodeId(await namespaceExternalId(this.name, namespace), async () => ({
      content: `LangGraph namespace ${namespace.join("/")}`,
      tier: "long" as const,
      parent_memory_id: (await this.rootId(true)) as string,
      metadata: { lg_kind: KIND.namespace, lg_store: this.name, lg_namespace: namespace },
    }));
    return id as string;
  }

  /** Every namespace that has held an item, with its memory's id, sorted as LangGraph's stores sort them. */
  private async namespaces(): Promise<{ namespace: string[]; id: string }[]> {
    const root = await this.rootId(false);
    if (!root) return [];
    const found: { namespace: string[]; id: string }[] = [];
    for await (const memory of this.client.memories.iterate({ parent_memory_id: root })) {
      const namespace = memory.metadata.lg_namespace;
      if (memory.metadata.lg_kind === KIND.namespace && Array.isArray(namespace))
        found.push({ namespace: namespace as string[], id: memory.id });
    }
    return found.sort((a, b) => a.namespace.join(":").localeCompare(b.namespace.join(":")));
  }

  private async searchOp(op: SearchOperation): Promise<MemoryServiceSearchItem[]> {
    const { namespacePrefix, filter, limit = 10, offset = 0, query } = op;
    if (query) {
      // A filter on the value applies after the ranking, so it gets every match the service gives.
      const wanted = filter ? MAX_MATCHES : Math.min(MAX_MATCHES, offset + limit);
      const { results } = await this.client.search({
        query,
        limit: wanted,
        metadata: prefixFilter(this.name, namespacePrefix),
      });
      return results
        .flatMap((r) => {
          const item = toItem(r as Memory, this.name);
          return item && matchesFilter(item.value, filter) ? [{ ...item, score: r.score }] : [];
        })
        .slice(offset, offset + limit);
    }
    const out: MemoryServiceSearchItem[] = [];
    let skip = offset;
    for (const { namespace, id } of await this.namespaces()) {
      if (!namespaceMatches(namespace, "prefix", namespacePrefix)) continue;
      const pages = this.client.memories.iterate({ parent_memory_id: id, sort: "updated_at", order: "desc" });
      for await (const memory of pages) {
        const item = toItem(memory, this.name);
        if (!item || !matchesFilter(item.value, filter)) continue;
        if (skip > 0) skip--;
        else out.push(item);
        if (out.length >= limit) return out;
      }
    }
    return out;
  }

  private async listNamespacesOp(op: ListNamespacesOperation): Promise<string[][]> {
    const conditions = op.matchConditions ?? [];
    const candidates = (await this.namespaces()).filter(({ namespace }) =>
      conditions.every((c) => namespaceMatches(namespace, c.matchType, c.path)),
    );
    // A namespace whose items were all deleted is no longer listed (its memory stays, for the next put).
    const held: string[][] = [];
    for (let i = 0; i < candidates.length; i += 8) {
      const chunk = candidates.slice(i, i + 8);
      const totals = await Promise.all(
        chunk.map(async ({ id }) => (await this.client.memories.list({ parent_memory_id: id, limit: 1 })).total),
      );
      chunk.forEach(({ namespace }, j) => totals[j]! > 0 && held.push(namespace));
    }
    let namespaces = held;
    if (op.maxDepth !== undefined) {
      const depth = op.maxDepth;
      const unique = new Map(held.map((ns) => [JSON.stringify(ns.slice(0, depth)), ns.slice(0, depth)]));
      namespaces = [...unique.values()].sort((a, b) => a.join(":").localeCompare(b.join(":")));
    }
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }
}

function ignoreNotFound(err: unknown) {
  if (!(err instanceof MemoryServiceError && err.code === "NOT_FOUND")) throw err;
}
