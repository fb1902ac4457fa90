import {
  createEntity,
  deleteEntity,
  getEntities,
  getEntity,
  linkEntityMemories,
  listEntities,
  unlinkEntityMemory,
  updateEntity,
} from "../../contract/entities";
import { notFound } from "../../contract/errors";
import type { Entity } from "../../contract/entities";
import type { Restriction } from "../../contract/op";
import { bind, type Handler, type HandlerContext } from "../../kit/handler";
import type { EntityFields } from "../entity";
import type { MemoryRow } from "../store";
import { snapshotOfMemory } from "../../contract/events";
import { spaceOf } from "../../kit/space";
import type { MemoriesDeps } from "./memories";
import { restrictionChecks, restrictionOf } from "../memory";

const unique = (ids: string[]) => [...new Set(ids)];

export function entityHandlers(deps: MemoriesDeps) {
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const restricted = restrictionChecks(deps.store);
  /** A link change alters the memories' `entity_ids`: new versions, events, re-index. */
  const entitiesChanged = (rows: MemoryRow[]) =>
    rows.map((row) => ({ type: "entities_changed" as const, memory: snapshotOfMemory(row.memory, row.version) }));

  const create: Handler<typeof createEntity> = async (input, ctx) => {
    const fields: EntityFields = {
      name: input.name,
      type: input.type,
      description: input.description ?? null,
      metadata: input.metadata ?? {},
    };
    const memoryIds = unique(input.memory_ids ?? []);
    await restricted.mustReach(spaceOf(ctx), restrictionOf(ctx), memoryIds);
    const result = await deps.store.createEntity(spaceOf(ctx), newId(), fields, memoryIds);
    await deps.changes.committed(ctx, entitiesChanged(result.linked));
    return result.entity;
  };

  /** The memories inside `r` linked to entity `id` (the walk's total: no page, so no memory shown). */
  const countInside = async (ctx: HandlerContext, r: Restriction, id: string) => {
    const q = { limit: 0, offset: 0, sort: "created_at" as const, order: "desc" as const, entity_id: id };
    return (await restricted.list(spaceOf(ctx), r, q)).total;
  };

  /**
   * Entities as a restricted caller sees them: `memory_count` counts only the memories inside its restriction
   * (each entity's memories walked), so a count tells nothing of memories outside.
   */
  async function counted<E extends Entity | null>(ctx: HandlerContext, entities: E[]): Promise<E[]> {
    const r = restrictionOf(ctx);
    if (!r) return entities;
    return Promise.all(entities.map(async (e) => (e ? { ...e, memory_count: await countInside(ctx, r, e.id) } : e)));
  }

  const get: Handler<typeof getEntity> = async (input, ctx) => {
    const entity = await deps.store.getEntity(spaceOf(ctx), input.id);
    if (!entity) throw notFound("Entity");
    return (await counted(ctx, [entity]))[0]!;
  };

  const getMany: Handler<typeof getEntities> = async (input, ctx) => ({
    items: await counted(ctx, await deps.store.getEntities(spaceOf(ctx), input.ids)),
  });

  const list: Handler<typeof listEntities> = async (input, ctx) => {
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const { total, items } = await deps.store.listEntities(spaceOf(ctx), {
      limit,
      offset,
      type: input.type,
      search: input.search,
    });
    return { items: await counted(ctx, items), total, limit, offset };
  };

  const update: Handler<typeof updateEntity> = async (input, ctx) => {
    const { id, ...patch } = input;
    restricted.forEntityChange(restrictionOf(ctx));
    if (Object.values(patch).every((v) => v === undefined)) return get({ id }, ctx);
    const result = await deps.store.updateEntity(spaceOf(ctx), id, patch);
    return result;
  };

  const remove: Handler<typeof deleteEntity> = async (input, ctx) => {
    restricted.forEntityChange(restrictionOf(ctx));
    const result = await deps.store.deleteEntity(spaceOf(ctx), input.id);
    await deps.changes.committed(ctx, entitiesChanged(result));
    return { id: input.id, deleted: true as const };
  };

  const link: Handler<typeof linkEntityMemories> = async (input, ctx) => {
    const memoryIds = unique(input.memory_ids);
    await restricted.mustReach(spaceOf(ctx), restrictionOf(ctx), memoryIds);
    const result = await deps.store.linkEntity(spaceOf(ctx), input.id, memoryIds);
    await deps.changes.committed(ctx, entitiesChanged(result.linked));
    const r = restrictionOf(ctx);
    const count = r ? await countInside(ctx, r, input.id) : result.count;
    return { entity_id: input.id, added: result.added, skipped: result.skipped, memory_count: count };
  };

  const unlink: Handler<typeof unlinkEntityMemory> = async (input, ctx) => {
    await restricted.mustReach(spaceOf(ctx), restrictionOf(ctx), [input.memory_id]);
    const result = await deps.store.unlinkEntity(spaceOf(ctx), input.id, input.memory_id);
    if (result.row) await deps.changes.committed(ctx, entitiesChanged([result.row]));
    return { entity_id: input.id, memory_id: input.memory_id, removed: result.removed };
  };

  return { create, get, getMany, list, update, remove, link, unlink };
}

export const entityBindings = (deps: MemoriesDeps) => {
  const h = entityHandlers(deps);
  return [
    bind(createEntity, h.create),
    bind(getEntity, h.get),
    bind(getEntities, h.getMany),
    bind(listEntities, h.list),
    bind(updateEntity, h.update),
    bind(deleteEntity, h.remove),
    bind(linkEntityMemories, h.link),
    bind(unlinkEntityMemory, h.unlink),
  ];
};
