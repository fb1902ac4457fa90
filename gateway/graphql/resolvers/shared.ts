import type { FieldNode, GraphQLResolveInfo } from "graphql";
import type { TagRef } from "../../../services/contract/tags";
import type { Memory } from "../../../services/contract/memories";
import type { GraphQLContext } from "../context";
import { present } from "../loaders";

export type Args = Record<string, any>;
export type Resolver<S = any> = (source: S, args: Args, ctx: GraphQLContext, info: GraphQLResolveInfo) => unknown;

/** A memory as resolvers see it: from a read (`tags` refs) or from an event snapshot (`tag_ids` only). */
export type MemorySource = Omit<Memory, "tags"> & { tags?: TagRef[]; tag_ids?: string[] };

const REF_FIELDS = new Set(["id", "name", "color", "__typename"]);
const refsOnly = new WeakMap<readonly FieldNode[], boolean>();

/** True when the query asks a tag list only for what a memory already carries (id, name, color). */
function wantsRefsOnly(info: GraphQLResolveInfo): boolean {
  let known = refsOnly.get(info.fieldNodes);
  if (known === undefined) {
    known = info.fieldNodes.every(
      (f) => f.selectionSet?.selections.every((s) => s.kind === "Field" && REF_FIELDS.has(s.name.value)) ?? false,
    );
    refsOnly.set(info.fieldNodes, known);
  }
  return known;
}

/** Tags named by refs: served from the refs when they suffice, else one batched `tags.getMany` per level. */
export async function tagsOf(
  refs: TagRef[] | undefined,
  ids: string[] | undefined,
  ctx: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  if (refs && wantsRefsOnly(info)) return refs;
  return present(await ctx.loaders.tag.loadMany(refs ? refs.map((t) => t.id) : (ids ?? [])));
}

/** A write changes what the request's caches hold: later fields of the same request read afresh. */
export async function afterWrite<T>(ctx: GraphQLContext, write: Promise<T>): Promise<T> {
  const result = await write;
  ctx.loaders.clearAll();
  return result;
}
