import {
  createMemory,
  deleteMemory,
  getMemories,
  getMemory,
  listMemories,
  MAX_HIERARCHY_DEPTH,
  MEMORY_DEFAULTS,
  memoryAncestors,
  memorySiblings,
  updateMemory,
} from "../../contract/memories";
import { notFound, validationError } from "../../contract/errors";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { MemoryFields, MemoryPatch, MemoryStore } from "../store";
import type { MemoryRow, Removal } from "../record";
import type { ChangePublisher, MemoryChange } from "../../memory-data/publisher";
import { snapshotOfMemory, type DeleteReason } from "../../contract/events";
import { restrictionChecks, restrictionOf } from "../restriction";

export interface MemoriesDeps {
  store: MemoryStore;
  changes: ChangePublisher;
  newId?: () => string;
}

/** Store field names → the API's, for the `changed` list of events. */
const API_FIELD: Record<string, string> = { parent: "parent_memory_id" };

/** The event of a memory a write changed besides its own (superseded, orphaned, made the latest again). */
const updated = (row: MemoryRow, changed: string[]): MemoryChange => ({
  type: "updated",
  memory: snapshotOfMemory(row.memory, row.version),
  changed,
});

/** The events of a removal (a delete, or the sweeper's purge): its deletions, then the memories it changed. */
export const removalChanges = (removal: Removal, reason: DeleteReason): MemoryChange[] => [
  ...removal.deleted.map((d) => ({ type: "deleted" as const, id: d.id, version: d.version, reason })),
  ...removal.updates.map((u) => updated(u.row, u.changed)),
];

export function memoryHandlers(deps: MemoriesDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const restricted = restrictionChecks(deps.store);

  /**
   * The sweeper learns of a memory's expiry from its writer (expiry/sweeper.ts). The write has committed
   * whatever happens here: a failure is logged, and the sweeper's walk over the spaces finds it later.
   */
  async function registerExpiry(ctx: Parameters<Handler<typeof createMemory>>[1], expiresAt: string | null) {
    if (expiresAt === null) return;
    await deps.store
      .registerExpiry(spaceOf(ctx), Date.parse(expiresAt))
      .catch((err) => ctx.log.error("expiry not registered", { message: (err as Error).message }));
  }

  const create: Handler<typeof createMemory> = async (input, ctx) => {
    if (input.expires_at !== undefined && input.ttl_seconds !== undefined)
      throw validationError("ttl_seconds", "exclusive", "Give expires_at or ttl_seconds, not both");
    const space = spaceOf(ctx);
    const parent = input.parent_memory_id ?? null;
    const { supersedes } = input;
    const metadata = await restricted.forCreate(space, restrictionOf(ctx), {
      metadata: input.metadata ?? {},
      parent,
      supersedes,
    });
    const fields: MemoryFields = {
      content: input.content,
      content_type: input.content_type ?? MEMORY_DEFAULTS.content_type,
      tier: input.tier ?? MEMORY_DEFAULTS.tier,
      memory_nature: input.memory_nature ?? MEMORY_DEFAULTS.memory_nature,
      parent,
      external_id: input.external_id ?? null,
      metadata,
    };
    const life = {
      occurred_at: input.occurred_at,
      expires_at: input.expires_at,
      ttl_seconds: input.ttl_seconds,
      supersedes: input.supersedes,
    };
    const row = await deps.store.createMemory(space, newId(), fields, MAX_HIERARCHY_DEPTH, life);
    const changes: MemoryChange[] = [{ type: "created", memory: snapshotOfMemory(row.memory, row.version) }];
    if (row.superseded) changes.push(updated(row.superseded, ["superseded_by", "valid_to"]));
    await deps.changes.committed(ctx, changes);
    await registerExpiry(ctx, row.memory.expires_at);
    return row.memory;
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
    const metadata = await restricted.forUpdate(space, restrictionOf(ctx), id, patch);
    if (metadata !== undefined) patch.metadata = metadata;
    const result = await deps.store.updateMemory(space, id, patch, MAX_HIERARCHY_DEPTH);
    const changed = result.changed.map((f) => API_FIELD[f] ?? f);
    const changes = [updated(result.row, changed)];
    if (result.superseded) changes.push(updated(result.superseded, ["valid_to"]));
    await deps.changes.committed(ctx, changes);
    if (changed.includes("expires_at")) await registerExpiry(ctx, result.row.memory.expires_at);
    return result.row.memory;
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
    if (r) await restricted.readable(space, input.id, r);
    const ids = await deps.store.ancestors(space, input.id, MAX_HIERARCHY_DEPTH);
    if (!ids) throw notFound("Memory");
    if (!r) return { id: input.id, ancestor_ids: ids };
    const rows = await restricted.visible(space, await deps.store.getMemories(space, ids), r);
    return { id: input.id, ancestor_ids: ids.filter((_, i) => rows[i]) };
  };

  /** Under a restriction: the memory inside it, and its siblings inside it only. */
  const siblings: Handler<typeof memorySiblings> = async (input, ctx) => {
    const space = spaceOf(ctx);
    const r = restrictionOf(ctx);
    if (r) await restricted.readable(space, input.id, r);
    const around = await deps.store.siblings(space, input.id, input.count);
    const [before, after] = await Promise.all([
      restricted.visible(space, around.before, r),
      restricted.visible(space, around.after, r),
    ]);
    const memories = (rows: (MemoryRow | null)[]) => rows.flatMap((row) => (row ? [row.memory] : []));
    return { before: memories(before), after: memories(after) };
  };

  return { create, get, getMany, list, update, remove, ancestors, siblings };
}

export const memoryBindings = (deps: MemoriesDeps) => {
  const h = memoryHandlers(deps);
  return [
    bind(createMemory, h.create),
    bind(getMemory, h.get),
    bind(getMemories, h.getMany),
    bind(listMemories, h.list),
    bind(updateMemory, h.update),
    bind(deleteMemory, h.remove),
    bind(memoryAncestors, h.ancestors),
    bind(memorySiblings, h.siblings),
  ];
};
