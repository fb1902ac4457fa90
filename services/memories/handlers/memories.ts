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
import { bind, type Handler, type HandlerContext } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { MemoryFields, MemoryPatch, MemoryStore } from "../store";
import type { MemoryRow, Removal } from "../record";
import type { ChangePublisher, MemoryChange } from "../../memory-data/publisher";
import { snapshotOfMemory, type DeleteReason } from "../../contract/events";
import { NO_PLAN_QUOTAS, planStorageLimits, type QuotaSettings } from "../quota";

export interface MemoriesDeps {
  store: MemoryStore;
  changes: ChangePublisher;
  newId?: () => string;
  /** The limits of the plans an operator configures (quota.ts); absent: none. */
  quotas?: QuotaSettings;
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

/** The storage limits of the caller's plan (the tenant's override, if any, wins inside the write). */
export const storageLimitsOf = (ctx: HandlerContext, deps: Pick<MemoriesDeps, "quotas">) =>
  planStorageLimits(ctx.caller?.plan, deps.quotas ?? NO_PLAN_QUOTAS);

export function memoryHandlers(deps: MemoriesDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const limitsOf = (ctx: HandlerContext) => storageLimitsOf(ctx, deps);

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
    const fields: MemoryFields = {
      content: input.content,
      content_type: input.content_type ?? MEMORY_DEFAULTS.content_type,
      tier: input.tier ?? MEMORY_DEFAULTS.tier,
      memory_nature: input.memory_nature ?? MEMORY_DEFAULTS.memory_nature,
      parent: input.parent_memory_id ?? null,
      external_id: input.external_id ?? null,
      metadata: input.metadata ?? {},
    };
    const life = {
      occurred_at: input.occurred_at,
      expires_at: input.expires_at,
      ttl_seconds: input.ttl_seconds,
      supersedes: input.supersedes,
    };
    const row = await deps.store.createMemory(spaceOf(ctx), newId(), fields, MAX_HIERARCHY_DEPTH, life, limitsOf(ctx));
    const changes: MemoryChange[] = [{ type: "created", memory: snapshotOfMemory(row.memory, row.version) }];
    if (row.superseded) changes.push(updated(row.superseded, ["superseded_by", "valid_to"]));
    await deps.changes.committed(ctx, changes);
    await registerExpiry(ctx, row.memory.expires_at);
    return row.memory;
  };

  const get: Handler<typeof getMemory> = async (input, ctx) => {
    const [row] = await deps.store.getMemories(spaceOf(ctx), [input.id]);
    if (!row) throw notFound("Memory");
    return row.memory;
  };

  const getMany: Handler<typeof getMemories> = async (input, ctx) => {
    const rows = await deps.store.getMemories(spaceOf(ctx), input.ids);
    return { items: rows.map((r) => r?.memory ?? null) };
  };

  const list: Handler<typeof listMemories> = async (input, ctx) => {
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const { total, rows } = await deps.store.listMemories(spaceOf(ctx), {
      ...input,
      limit,
      offset,
      sort: input.sort ?? "created_at",
      order: input.order ?? "desc",
    });
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
    const result = await deps.store.updateMemory(space, id, patch, MAX_HIERARCHY_DEPTH, limitsOf(ctx));
    const changed = result.changed.map((f) => API_FIELD[f] ?? f);
    const changes = [updated(result.row, changed)];
    if (result.superseded) changes.push(updated(result.superseded, ["valid_to"]));
    await deps.changes.committed(ctx, changes);
    if (changed.includes("expires_at")) await registerExpiry(ctx, result.row.memory.expires_at);
    return result.row.memory;
  };

  const remove: Handler<typeof deleteMemory> = async (input, ctx) => {
    const cascade = input.cascade === true;
    const result = await deps.store.deleteMemory(spaceOf(ctx), input.id, cascade);
    await deps.changes.committed(ctx, removalChanges(result, "deleted"));
    return cascade
      ? { id: input.id, deleted: true as const, deleted_count: result.deleted.length }
      : { id: input.id, deleted: true as const };
  };

  const ancestors: Handler<typeof memoryAncestors> = async (input, ctx) => {
    const ids = await deps.store.ancestors(spaceOf(ctx), input.id, MAX_HIERARCHY_DEPTH);
    if (!ids) throw notFound("Memory");
    return { id: input.id, ancestor_ids: ids };
  };

  const siblings: Handler<typeof memorySiblings> = async (input, ctx) => {
    const around = await deps.store.siblings(spaceOf(ctx), input.id, input.count);
    return { before: around.before.map((r) => r.memory), after: around.after.map((r) => r.memory) };
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
