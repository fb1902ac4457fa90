import type { ChainableCommander } from "ioredis";

/**
 * While a Redis Cluster moves a slot, a call on it bounces between the two nodes (ASK to the importing
 * node, TRYAGAIN while a function's or a transaction's keys are split between them, MOVED while nodes
 * learn the new owner). The client follows a bounded number of redirections, fewer than a big slot's
 * move lasts, and hands mixed answers within one pipeline to the caller. Each of these answers means the
 * command did not run, so the whole call is sent again until the move ends, within a deadline.
 */
const REDIRECTION = "(ASK|MOVED|TRYAGAIN) ";
const TOO_MANY = "Too many Cluster redirections\\. Last error: ReplyError: ";
const REDIRECTED = new RegExp(`^${REDIRECTION}|^EXECABORT .*${REDIRECTION}|^${TOO_MANY}${REDIRECTION}`);

export const SLOT_MOVE_WAIT_MS = 15_000;

export async function acrossSlotMoves<T>(call: () => Promise<T>, waitMs = SLOT_MOVE_WAIT_MS): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!REDIRECTED.test((err as Error)?.message ?? "") || performance.now() > deadline) throw err;
      await Bun.sleep(50);
    }
  }
}

/**
 * Runs a batch built by `build` (built again for each attempt) and returns its replies, throwing the
 * first error. Only for reads and for MULTI transactions, which a redirection aborts whole: a pipeline of
 * writes sent again could apply some of them twice.
 */
export function execBatch(build: () => ChainableCommander, waitMs = SLOT_MOVE_WAIT_MS): Promise<unknown[]> {
  return acrossSlotMoves(async () => {
    const replies = (await build().exec()) ?? [];
    return replies.map(([err, value]) => {
      if (err) throw err;
      return value;
    });
  }, waitMs);
}
