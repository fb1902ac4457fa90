import {
  createMemories,
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  updateMemory,
  type Memory,
} from "../../../services/contract/memories";
import type { PageOf } from "../../../services/contract/common";
import type { InputOf } from "../../../services/contract/op";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import { present } from "../loaders";
import { afterWrite, tagsOf, type Args, type MemorySource, type Resolver } from "./shared";

/** One `memories.list`; its items serve later `parent` lookups of the same request. */
async function listed(ctx: GraphQLContext, input: InputOf<typeof listMemories>): Promise<PageOf<Memory>> {
  const page = await call(ctx, listMemories, input);
  ctx.loaders.primeMemories(page.items);
  return page;
}

/** Pages of memories seen from another object (a parent, a tag, an entity). */
export const memoriesWhere =
  (filterOf: (source: any) => Record<string, unknown>): Resolver =>
  (source, args, ctx) =>
    listed(ctx, toInput(args, filterOf(source)));

export const memoryResolvers = {
  Query: {
    memory: async (_: unknown, { id }: Args, ctx: GraphQLContext) => {
      const memory = await call(ctx, getMemory, { id: knownId(id, "Memory") });
      ctx.loaders.primeMemories([memory]);
      return memory;
    },
    memories: (_: unknown, args: Args, ctx: GraphQLContext) => listed(ctx, toInput(args)),
  },
  Mutation: {
    createMemory: (_: unknown, args: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, createMemory, toInput(args))),
    createMemories: async (_: unknown, { items }: Args, ctx: GraphQLContext) => {
      const input = (items as Args[]).map(({ memory, parentRef }) => ({
        ...toInput({ input: memory }),
        ...(parentRef === null || parentRef === undefined ? {} : { parent_ref: parentRef }),
      }));
      const out = await afterWrite(ctx, call(ctx, createMemories, { items: input }));
      return {
        ...out,
        items: out.items.map((r) => ("data" in r ? { memory: r.data, error: null } : { memory: null, error: r.error })),
      };
    },
    updateMemory: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, updateMemory, toInput(args, { id: knownId(id, "Memory") }))),
    deleteMemory: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, deleteMemory, toInput(args, { id: knownId(id, "Memory") }))),
  },
  Memory: {
    parent: (m: MemorySource, _: Args, ctx: GraphQLContext) =>
      m.parent_memory_id ? ctx.loaders.memory.load(m.parent_memory_id) : null,
    children: memoriesWhere((m: MemorySource) => ({ parent_memory_id: m.id })),
    ancestors: async (m: MemorySource, _: Args, ctx: GraphQLContext) =>
      present(await ctx.loaders.memory.loadMany(await ctx.loaders.ancestors.load(m.id))),
    tags: ((m: MemorySource, _, ctx, info) => tagsOf(m.tags, m.tag_ids, ctx, info)) as Resolver<MemorySource>,
    entities: async (m: MemorySource, _: Args, ctx: GraphQLContext) =>
      present(await ctx.loaders.entity.loadMany(m.entity_ids)),
  },
};
