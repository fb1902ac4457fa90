import { ServiceError } from "../contract/errors";
import { getMemory } from "../contract/memories";
import type { Bus } from "../kit/bus";
import { restrictionOf, type HandlerContext } from "../kit/handler";

/**
 * A browser token's restriction in the tags service: tags themselves are readable, but a link touches only
 * a memory inside the restriction. The memories service decides what is inside (its `memories.get` answers
 * 404 for the token otherwise), so the rule lives once, in services/memories/restriction.ts.
 */
export function linkRestriction(bus: Bus) {
  return async (ctx: HandlerContext, memoryId: string, detaching?: string): Promise<void> => {
    const r = restrictionOf(ctx);
    if (!r) return;
    await bus.call(getMemory, { id: memoryId }, { caller: ctx.caller!, requestId: ctx.requestId });
    // Detaching a restricted tag could move the memory out of what the token may reach.
    if (detaching && r.tag_ids?.includes(detaching)) {
      throw new ServiceError("FORBIDDEN", "This token cannot detach a tag it is restricted to", {
        field: "tag_id",
        constraint: "token_restriction",
      });
    }
  };
}

/** Refuses a link the caller's restriction does not allow (nothing to check without one). */
export type LinkCheck = ReturnType<typeof linkRestriction>;
