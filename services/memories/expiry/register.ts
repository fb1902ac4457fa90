import { errorFields } from "../../kit/log";
import type { HandlerContext } from "../../kit/handler";
import type { Space } from "../../kit/space";
import type { MemoryStore } from "../store";

/**
 * The sweeper learns of a memory's expiry from its writer (sweeper.ts): after a write, the earliest of the
 * expiries it set (ISO 8601; null = never) is registered. The write has committed whatever happens here: a
 * failure is logged, and the sweeper's walk over the spaces finds it later.
 */
export async function registerEarliestExpiry(
  store: Pick<MemoryStore, "registerExpiry">,
  ctx: Pick<HandlerContext, "log">,
  space: Space,
  expiries: (string | null)[],
): Promise<void> {
  const times = expiries.flatMap((at) => (at === null ? [] : [Date.parse(at)]));
  if (times.length === 0) return;
  await store
    .registerExpiry(space, Math.min(...times))
    .catch((err) => ctx.log.error("expiry not registered", errorFields(err)));
}
