import { ServiceError } from "../../contract/errors";
import { memoryThreads, type Thread } from "../../contract/threads";
import { bind, type Handler, type HandlerContext } from "../../kit/handler";
import { type MemoriesDeps, memoryHandlers } from "./memories";

/**
 * `memories.threads`: each memory's thread, read by the handlers of memories.ancestors and memories.siblings
 * themselves, so a browser token's restriction holds exactly as it does there. One call replaces two per memory;
 * a memory they answer 404 for (unknown, or outside the restriction) has no thread here (null), so one memory
 * deleted meanwhile does not fail the others.
 */
export function threadBindings(deps: MemoriesDeps) {
  const h = memoryHandlers(deps);

  async function threadOf(id: string, siblings: number, ctx: HandlerContext): Promise<Thread | null> {
    try {
      const [up, around] = await Promise.all([
        h.ancestors({ id }, ctx),
        siblings > 0 ? h.siblings({ id, count: siblings }, ctx) : { before: [], after: [] },
      ]);
      return { id: up.id, ancestor_ids: up.ancestor_ids, before: around.before, after: around.after };
    } catch (err) {
      if (err instanceof ServiceError && err.code === "NOT_FOUND") return null;
      throw err;
    }
  }

  const threads: Handler<typeof memoryThreads> = async (input, ctx) => ({
    items: await Promise.all(input.items.map(({ id, siblings }) => threadOf(id, siblings, ctx))),
  });

  return [bind(memoryThreads, threads)];
}
