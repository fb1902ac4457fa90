import { getMemory } from "../../../services/contract/memories";
import type { MemoryEvent, MemorySnapshot } from "../../../services/contract/events";
import { validationError } from "../../../services/contract/errors";
import { requireScope } from "../../http/exchange/guard";
import type { GraphQLContext } from "../context";
import type { EventHub } from "../events";
import { camel } from "../args";
import type { Args, MemorySource } from "./shared";

const MAX_FILTER_IDS = 100;

/**
 * A snapshot has the memory's fields but only tag ids: `Memory.tags` loads the tags from them. One from a
 * publisher that does not send a memory's life reads as the defaults of a memory without one.
 */
const fromSnapshot = ({ version: _v, ...m }: MemorySnapshot): MemorySource =>
  ({
    occurred_at: m.created_at,
    expires_at: null,
    supersedes: null,
    superseded_by: null,
    valid_to: null,
    ...m,
  }) as MemorySource;

export const eventResolvers = (hub: EventHub) => ({
  Subscription: {
    memoryEvents: {
      // Reading events is reading memories: the scope of `memories.get`.
      subscribe: (_: unknown, { filter }: Args, ctx: GraphQLContext) => {
        requireScope(ctx.identity, getMemory.scope);
        if ((filter?.memoryIds?.length ?? 0) > MAX_FILTER_IDS) {
          throw validationError("memory_ids", "max_items", `memory_ids must have at most ${MAX_FILTER_IDS} items`, {
            max: MAX_FILTER_IDS,
          });
        }
        return hub.stream(ctx.identity, filter ?? {}, getMemory.scope!);
      },
      resolve: (event: MemoryEvent, _: Args, ctx: GraphQLContext) => {
        ctx.loaders.clearAll(); // each event is resolved against current data
        return event;
      },
    },
  },
  MemoryEvent: {
    changed: (e: MemoryEvent) => e.changed.map(camel),
    memory: (e: MemoryEvent) => (e.memory ? fromSnapshot(e.memory) : null),
  },
});
