import {
  createEntity,
  deleteEntity,
  getEntity,
  linkEntityMemories,
  listEntities,
  unlinkEntityMemory,
  updateEntity,
} from "../../../services/contract/entities";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import { memoriesWhere } from "./memories";
import { afterWrite, type Args } from "./shared";

const entityOf = (p: { entity_id: string }, _: Args, ctx: GraphQLContext) => ctx.loaders.entity.load(p.entity_id);

export const entityResolvers = {
  Query: {
    entity: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, getEntity, { id: knownId(id, "Entity") }),
    entities: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, listEntities, toInput(args)),
  },
  Mutation: {
    createEntity: (_: unknown, args: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, createEntity, toInput(args))),
    updateEntity: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, updateEntity, toInput(args, { id: knownId(id, "Entity") }))),
    deleteEntity: (_: unknown, { id }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, deleteEntity, { id: knownId(id, "Entity") })),
    linkEntityMemories: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, linkEntityMemories, toInput(args, { id: knownId(id, "Entity") }))),
    unlinkEntityMemory: (_: unknown, { id, memoryId }: Args, ctx: GraphQLContext) =>
      afterWrite(
        ctx,
        call(ctx, unlinkEntityMemory, { id: knownId(id, "Entity"), memory_id: knownId(memoryId, "Memory") }),
      ),
  },
  Entity: {
    memories: memoriesWhere((e: { id: string }) => ({ entity_id: e.id })),
  },
  LinkEntityMemoriesPayload: { entity: entityOf },
  UnlinkEntityMemoryPayload: { entity: entityOf },
};
