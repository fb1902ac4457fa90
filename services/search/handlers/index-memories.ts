import { indexMemories } from "../../contract/search-index";
import { bind, requireCaller, type Handler } from "../../kit/handler";
import type { Apply } from "../indexer";

/** `search.index`: the writers' synchronous call (read-your-writes); tenant and env from the caller. */
export function indexBindings(apply: Apply) {
  const index: Handler<typeof indexMemories> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    return apply({ tenant: caller.tenant, env: caller.env }, input);
  };
  return [bind(indexMemories, index)];
}
