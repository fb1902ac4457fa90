import {
  createMemory,
  deleteMemory,
  getMemories,
  getMemory,
  listMemories,
  MAX_HIERARCHY_DEPTH,
  MEMORY_DEFAULTS,
  memoryAncestors,
  updateMemory,
} from "../../contract/memories";
import { notFound } from "../../contract/errors";
import { bind, type Handler } from "../../kit/handler";
import { spaceOf } from "../../kit/space";
import type { MemoryFields, MemoryStore } from "../store";
import type { ChangePublisher, MemoryChange } from "../../memory-data/publisher";
import { snapshotOfMemory } from "../../contract/events";

export interface MemoriesDeps {
  store: MemoryStore;
  changes: ChangePublisher;
  newId?: () => string;
}

/** Store field names → the API's, for the `changed` list of events. */
const API_FIELD: Record<string, string> = { parent: "parent_memory_id" };

export function memoryHandlers(deps: MemoriesDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());

  const create: Handler<typeof createMemory> = async (input, ctx) => {
    const fields: MemoryFields = {
      content: input.content,
      content_type: input.content_type ?? MEMORY_DEFAULTS.content_type,
      tier: input.tier ?? MEMORY_DEFAULTS.tier,
      memory_nature: input.memory_nature ?? MEMORY_DEFAULTS.memory_nature,
      parent: input.parent_memory_id ?? null,
      external_id: input.external_id ?? null,
      metadata: input.metadata ?? {},
    };
    const row = await deps.store.createMemory(spaceOf(ctx), newId(), fields, MAX_HIERARCHY_DEPTH);
    await deps.changes.committed(ctx, [{ type: "created", memory: snapshotOfMemory(row.memory, row.version) }]);
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
    const patch: Partial<MemoryFields> = {
      ...rest,
      ...(parent_memory_id !== undefined ? { parent: parent_memory_id } : {}),
    };
    const space = spaceOf(ctx);
    if (Object.values(patch).every((v) => v === undefined)) return get({ id }, ctx);
    const result = await deps.store.updateMemory(space, id, patch, MAX_HIERARCHY_DEPTH);
    const changed = result.changed.map((f) => API_FIELD[f] ?? f);
    await deps.changes.committed(ctx, [
      { type: "updated", memory: snapshotOfMemory(result.row.memory, result.row.version), changed },
    ]);
    return result.row.memory;
  };

  const remove: Handler<typeof deleteMemory> = async (input, ctx) => {
    const cascade = input.cascade === true;
    const result = await deps.store.deleteMemory(spaceOf(ctx), input.id, cascade);
    const changes: MemoryChange[] = [
      ...result.deleted.map((d) => ({ type: "deleted" as const, id: d.id, version: d.version })),
      ...result.orphans.map((row) => ({
        type: "updated" as const,
        memory: snapshotOfMemory(row.memory, row.version),
        changed: ["parent_memory_id"],
      })),
    ];
    await deps.changes.committed(ctx, changes);
    return cascade
      ? { id: input.id, deleted: true as const, deleted_count: result.deleted.length }
      : { id: input.id, deleted: true as const };
  };

  const ancestors: Handler<typeof memoryAncestors> = async (input, ctx) => {
    const ids = await deps.store.ancestors(spaceOf(ctx), input.id, MAX_HIERARCHY_DEPTH);
    if (!ids) throw notFound("Memory");
    return { id: input.id, ancestor_ids: ids };
  };

  return { create, get, getMany, list, update, remove, ancestors };
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
  ];
};
