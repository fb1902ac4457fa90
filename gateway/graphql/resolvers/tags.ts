import {
  attachTags,
  createTag,
  deleteTag,
  detachTag,
  getTag,
  listTags,
  updateTag,
  type TagRef,
} from "../../../services/contract/tags";
import { call, type GraphQLContext } from "../context";
import { knownId, toInput } from "../args";
import { memoriesWhere } from "./memories";
import { afterWrite, tagsOf, type Args, type Resolver } from "./shared";

const memoryOf = (p: { memory_id: string }, _: Args, ctx: GraphQLContext) => ctx.loaders.memory.load(p.memory_id);

export const tagResolvers = {
  Query: {
    tag: (_: unknown, { id }: Args, ctx: GraphQLContext) => call(ctx, getTag, { id: knownId(id, "Tag") }),
    tags: (_: unknown, args: Args, ctx: GraphQLContext) => call(ctx, listTags, toInput(args)),
  },
  Mutation: {
    createTag: (_: unknown, args: Args, ctx: GraphQLContext) => afterWrite(ctx, call(ctx, createTag, toInput(args))),
    updateTag: (_: unknown, { id, ...args }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, updateTag, toInput(args, { id: knownId(id, "Tag") }))),
    deleteTag: (_: unknown, { id }: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, deleteTag, { id: knownId(id, "Tag") })),
    attachTags: (_: unknown, args: Args, ctx: GraphQLContext) =>
      afterWrite(ctx, call(ctx, attachTags, toInput(args, { memory_id: knownId(args.memoryId, "Memory") }))),
    detachTag: (_: unknown, args: Args, ctx: GraphQLContext) =>
      afterWrite(
        ctx,
        call(ctx, detachTag, { memory_id: knownId(args.memoryId, "Memory"), tag_id: knownId(args.tagId, "Tag") }),
      ),
  },
  Tag: {
    memories: memoriesWhere((t: { id: string }) => ({ tag_id: [t.id] })),
  },
  AttachTagsPayload: {
    tags: ((p: { tags: TagRef[] }, _, ctx, info) => tagsOf(p.tags, undefined, ctx, info)) as Resolver,
    memory: memoryOf,
  },
  DetachTagPayload: { memory: memoryOf },
};
