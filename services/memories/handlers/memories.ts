import {
  createMemories,
  createMemory,
  type CreateMemoryInput,
  deleteMemory,
  getMemories,
  getMemory,
  listMemories,
  MAX_HIERARCHY_DEPTH,
  MEMORY_DEFAULTS,
  memoryAncestors,
  memorySiblings,
  updateMemory,
  validateMemoryItem,
} from "../../contract/memories";
import { notFound, ServiceError, validationError } from "../../contract/errors";
import { bind, type Handler, type HandlerContext } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { MemoryFields, MemoryRow, MemoryStore } from "../store";
import type { ChangePublisher } from "../../memory-data/publisher";
import { NO_PLAN_QUOTAS, planStorageLimits, type QuotaSettings } from "../storage";
import {
  createdChanges,
  removalChanges,
  restrictionChecks,
  restrictionOf,
  updatedChange,
  type Created,
  type MemoryDraft,
  type MemoryPatch,
} from "../memory";
import { registerEarliestExpiry } from "../expiry";

export interface MemoriesDeps {
  store: MemoryStore;
  changes: ChangePublisher;
  newId?: () => string;
  /** The limits of the plans an operator configures (storage/quota.ts); absent: none. */
  quotas?: QuotaSettings;
}

/** Store field names → the API's, for the `changed` list of events. */
const API_FIELD: Record<string, string> = { parent: "parent_memory_id" };

/** A create's input as the store takes it (defaults filled); refuses what the schema cannot say. */
function draftOf(input: CreateMemoryInput, id: string, parent: string | null): MemoryDraft {
  if (input.expires_at !== undefined && input.ttl_seconds !== undefined)
    throw validationError("ttl_seconds", "exclusive", "Give expires_at or ttl_seconds, not both");
  const fields: MemoryFields = {
    content: input.content,
    content_type: input.content_type ?? MEMORY_DEFAULTS.content_type,
    tier: input.tier ?? MEMORY_DEFAULTS.tier,
    memory_nature: input.memory_nature ?? MEMORY_DEFAULTS.memory_nature,
    parent,
    external_id: input.external_id ?? null,
    metadata: input.metadata ?? {},
  };
  const { occurred_at, expires_at, ttl_seconds, supersedes } = input;
  return { id, fields, life: { occurred_at, expires_at, ttl_seconds, supersedes } };
}

const parentItemRefused = () =>
  validationError("parent_ref", "exists", "parent_ref names an item of this call that was not created");

/**
 * The parent of batch item `i`: its parent_memory_id, or the id of the earlier item its parent_ref names (`ids`:
 * the call's ids; `results`: the refusals of the items checked so far).
 */
function parentOf(
  item: CreateMemoryInput,
  ref: number | undefined,
  i: number,
  ids: string[],
  results: (Created | ServiceError)[],
): string | null {
  if (ref === undefined) return item.parent_memory_id ?? null;
  if (item.parent_memory_id != null)
    throw validationError("parent_ref", "exclusive", "Give parent_ref or parent_memory_id, not both");
  if (ref >= i) throw validationError("parent_ref", "range", "parent_ref must be the index of an earlier item");
  if (results[ref] instanceof ServiceError) throw parentItemRefused();
  return ids[ref]!;
}

/** The storage limits of the caller's plan (the tenant's override, if any, wins inside the write). */
export const storageLimitsOf = (ctx: HandlerContext, deps: Pick<MemoriesDeps, "quotas">) =>
  planStorageLimits(ctx.caller?.plan, deps.quotas ?? NO_PLAN_QUOTAS);

export function memoryHandlers(deps: MemoriesDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const limitsOf = (ctx: HandlerContext) => storageLimitsOf(ctx, deps);
  const restricted = restrictionChecks(deps.store);

  const registerExpiry = (ctx: HandlerContext, ...expiries: (string | null)[]) =>
    registerEarliestExpiry(deps.store, ctx, spaceOf(ctx), expiries);

  const create: Handler<typeof createMemory> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const asked = draftOf(input, newId(), input.parent_memory_id ?? null);
    const { id, fields, life } = await restricted.forCreate(space, restrictionOf(ctx), asked);
    const row = await deps.store.createMemory(
      space,
      id,
      fields,
      MAX_HIERARCHY_DEPTH,
      life,
      limitsOf(ctx),
      ctx.keyClaim,
    );
    await deps.changes.committed(ctx, createdChanges(row));
    await registerExpiry(ctx, row.memory.expires_at);
    return row.memory;
  };

  /**
   * Each item checked alone, then every valid one created in one step (in order, so an item's parent may be an
   * earlier item), then one publication of all their changes: the search index takes them in batches, and the
   * call returns once they are searchable, as a single create does.
   */
  const createBatch: Handler<typeof createMemories> = async (input, ctx) => {
    const items = input.items as unknown[];
    const ids = items.map(() => newId());
    const refs: (number | undefined)[] = [];
    const results: (Created | ServiceError)[] = [];
    const todo: MemoryDraft[] = [];
    const at: number[] = [];
    const space = spaceOf(ctx);
    const r = restrictionOf(ctx);
    // Under a restriction, an item under an earlier item is checked with the parent that item was checked with.
    const checkedParent: (string | null)[] = [];
    for (const [i, raw] of items.entries()) {
      try {
        const { parent_ref, ...item } = validateMemoryItem(raw);
        const asked = draftOf(item, ids[i]!, parentOf(item, parent_ref, i, ids, results));
        const parent = parent_ref === undefined ? asked.fields.parent : checkedParent[parent_ref]!;
        todo.push(await restricted.forCreate(space, r, asked, parent));
        checkedParent[i] = parent;
        at.push(i);
        refs[i] = parent_ref;
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        results[i] = err;
      }
    }
    const outcomes = await deps.store.createMemories(space, todo, MAX_HIERARCHY_DEPTH, limitsOf(ctx));
    outcomes.forEach((outcome, k) => (results[at[k]!] = outcome));
    // A sent item whose parent item was refused is refused for that reason, whatever the store said of it.
    refs.forEach((ref, i) => {
      if (ref !== undefined && results[ref] instanceof ServiceError) results[i] = parentItemRefused();
    });
    const rows = results.filter((r): r is Created => !(r instanceof ServiceError));
    await deps.changes.committed(ctx, rows.flatMap(createdChanges));
    await registerExpiry(ctx, ...rows.map((r) => r.memory.expires_at));
    return {
      items: results.map((r) => (r instanceof ServiceError ? { error: r.toBody() } : { data: r.memory })),
      created: rows.length,
      failed: results.length - rows.length,
    };
  };

  const get: Handler<typeof getMemory> = async (input, ctx) =>
    (await restricted.readable(spaceOf(ctx), input.id, restrictionOf(ctx))).memory;

  const getMany: Handler<typeof getMemories> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const rows = await restricted.visible(space, await deps.store.getMemories(space, input.ids), restrictionOf(ctx));
    return { items: rows.map((r) => r?.memory ?? null) };
  };

  const list: Handler<typeof listMemories> = async (input, ctx) => {
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const q = { ...input, limit, offset, sort: input.sort ?? "created_at", order: input.order ?? "desc" };
    const r = restrictionOf(ctx);
    const { total, rows } = r
      ? await restricted.list(spaceOf(ctx), r, q)
      : await deps.store.listMemories(spaceOf(ctx), q);
    return { items: rows.map((r) => r.memory), total, limit, offset };
  };

  const update: Handler<typeof updateMemory> = async (input, ctx) => {
    const { id, parent_memory_id, ...rest } = input;
    const patch: MemoryPatch = {
      ...rest,
      ...(parent_memory_id !== undefined ? { parent: parent_memory_id } : {}),
    };
    const space = spaceOf(ctx);
    if (Object.values(patch).every((v) => v === undefined)) return get({ id }, ctx);
    const r = restrictionOf(ctx);
    const metadata = await restricted.forUpdate(space, r, id, patch);
    if (metadata !== undefined) patch.metadata = metadata;
    const result = await deps.store.updateMemory(space, id, patch, MAX_HIERARCHY_DEPTH, limitsOf(ctx));
    const changed = result.changed.map((f) => API_FIELD[f] ?? f);
    const changes = [updatedChange(result.row, changed)];
    if (result.superseded) changes.push(updatedChange(result.superseded, ["valid_to"]));
    await deps.changes.committed(ctx, changes);
    if (changed.includes("expires_at")) await registerExpiry(ctx, result.row.memory.expires_at);
    return (await restricted.shown(space, result.row, r)).memory;
  };

  const remove: Handler<typeof deleteMemory> = async (input, ctx) => {
    const cascade = input.cascade === true;
    await restricted.forDelete(spaceOf(ctx), restrictionOf(ctx), input.id, cascade);
    const result = await deps.store.deleteMemory(spaceOf(ctx), input.id, cascade);
    await deps.changes.committed(ctx, removalChanges(result, "deleted"));
    return cascade
      ? { id: input.id, deleted: true as const, deleted_count: result.deleted.length }
      : { id: input.id, deleted: true as const };
  };

  /** Under a restriction: the ancestors inside it only (a subtree's stop at its root). */
  const ancestors: Handler<typeof memoryAncestors> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const r = restrictionOf(ctx);
    await restricted.mustReach(space, r, [input.id]);
    const ids = await deps.store.ancestors(space, input.id, MAX_HIERARCHY_DEPTH);
    if (!ids) throw notFound("Memory");
    if (!r) return { id: input.id, ancestor_ids: ids };
    const rows = await restricted.keep(space, await deps.store.getMemories(space, ids), r);
    return { id: input.id, ancestor_ids: ids.filter((_, i) => rows[i]) };
  };

  /** Under a restriction: the memory inside it, and its siblings inside it only. */
  const siblings: Handler<typeof memorySiblings> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const r = restrictionOf(ctx);
    await restricted.mustReach(space, r, [input.id]);
    const around = await deps.store.siblings(space, input.id, input.count);
    const [before, after] = await Promise.all([
      restricted.visible(space, around.before, r),
      restricted.visible(space, around.after, r),
    ]);
    const memories = (rows: (MemoryRow | null)[]) => rows.flatMap((row) => (row ? [row.memory] : []));
    return { before: memories(before), after: memories(after) };
  };

  return { create, createBatch, get, getMany, list, update, remove, ancestors, siblings };
}

export const memoryBindings = (deps: MemoriesDeps) => {
  const h = memoryHandlers(deps);
  return [
    bind(createMemory, h.create),
    bind(createMemories, h.createBatch),
    bind(getMemory, h.get),
    bind(getMemories, h.getMany),
    bind(listMemories, h.list),
    bind(updateMemory, h.update),
    bind(deleteMemory, h.remove),
    bind(memoryAncestors, h.ancestors),
    bind(memorySiblings, h.siblings),
  ];
};
