import { ServiceError } from "../contract/errors";
import { getMemory, listMemories } from "../contract/memories";
import type { Bus } from "../kit/bus";
import { restrictionOf, type HandlerContext } from "../kit/handler";

/** A refusal of the caller's restriction. */
const forbidden = (message: string, field: string) =>
  new ServiceError("FORBIDDEN", message, { field, constraint: "token_restriction" });

/**
 * A browser token's restriction in the tags service: tags themselves are readable, but a link touches only
 * a memory inside the restriction. The memories service decides what is inside (its `memories.get` answers
 * 404 for the token otherwise), so the rule lives once, in services/memories/memory/restriction.ts.
 */
export function linkRestriction(bus: Bus) {
  return async (ctx: HandlerContext, memoryId: string, detaching?: string): Promise<void> => {
    const r = restrictionOf(ctx);
    if (!r) return;
    await bus.call(getMemory, { id: memoryId }, { caller: ctx.caller!, requestId: ctx.requestId });
    // Detaching a restricted tag could move the memory out of what the token may reach.
    if (detaching && r.tag_ids?.includes(detaching))
      throw forbidden("This token cannot detach a tag it is restricted to", "tag_id");
  };
}

/** Refuses a link the caller's restriction does not allow (nothing to check without one). */
export type LinkCheck = ReturnType<typeof linkRestriction>;

/**
 * A tag's own change (rename, recolour, delete) under a restriction: refused, as a tag is shared by the
 * tenant's memories, outside ones included (a delete detaches it from all of them, a rename shows on them).
 * Creating a tag, and attaching or detaching one on a memory inside, stay allowed.
 */
export function refuseTagChange(ctx: HandlerContext): void {
  if (restrictionOf(ctx))
    throw forbidden("A token cannot change or delete a tag (it is shared by the tenant)", "tag_id");
}

/**
 * A restricted caller's `memory_count` of tags: the memories inside its restriction that carry each (the
 * memories service counts them, walking the tag's memories), so a count tells nothing of memories outside.
 * Null without a restriction: the stored counts hold.
 */
export function countsInside(bus: Bus) {
  return async (ctx: HandlerContext, tagIds: string[]): Promise<Map<string, number> | null> => {
    if (!restrictionOf(ctx)) return null;
    const on = { caller: ctx.caller!, requestId: ctx.requestId };
    const totals = await Promise.all(
      tagIds.map(async (id) => (await bus.call(listMemories, { tag_id: [id], limit: 1 }, on)).total),
    );
    return new Map(tagIds.map((id, i) => [id, totals[i]!]));
  };
}

export type CountsInside = ReturnType<typeof countsInside>;

/** Sorting tags by memory_count under a restriction would count every tag's memories: refused. */
export function refuseCountSort(ctx: HandlerContext, sort: string): void {
  if (sort === "memory_count" && restrictionOf(ctx))
    throw forbidden("A token cannot sort tags by memory_count", "sort");
}
