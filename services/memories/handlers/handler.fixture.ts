import type { ServiceError } from "../../contract/errors";
import type { HandlerContext } from "../../kit/handler";
import { createLogger } from "../../kit/log";
import type { MemoryStore } from "../store";
import type { ChangePublisher, MemoryChange } from "../../memory-data/publisher";
import { snapshotOfMemory } from "../../contract/events";
import type { MemoryRow } from "../store";
import { memoryFixture } from "../../contract/memory.fixture";
import { memoryHandlers } from "./memories";

/** Shared by the memory handlers' tests: a caller, rows, and the handlers over a store double. */
export const ctx: HandlerContext = {
  caller: { tenant: "acme", env: "test", keyId: "k", scopes: ["*"] },
  requestId: "r1",
  log: createLogger({}, "error"),
};

export const row = (id: string, over: Partial<MemoryRow["memory"]> = {}, version = 1): MemoryRow => ({
  version,
  memory: memoryFixture({ id, content: "c", ...over }),
});
export const snapshot = (r: MemoryRow) => snapshotOfMemory(r.memory, r.version);

/** A store double that records calls; each test sets the answers it needs. */
export function setup(answers: Partial<Record<keyof MemoryStore, unknown>>) {
  const calls: { name: string; args: unknown[] }[] = [];
  const store = new Proxy({} as MemoryStore, {
    get:
      (_t, name: string) =>
      async (...args: unknown[]) => {
        calls.push({ name, args });
        const answer = answers[name as keyof MemoryStore];
        if (answer instanceof Error) throw answer;
        return answer;
      },
  });
  const changes: MemoryChange[][] = [];
  const publisher: ChangePublisher = { committed: async (_c, ch) => void changes.push(ch) };
  return { h: memoryHandlers({ store, changes: publisher, newId: () => "new-id" }), calls, changes };
}

/** A refusal's code and details, or "resolved". */
export const codeOf = async (p: unknown) => {
  try {
    await p;
  } catch (err) {
    return [(err as ServiceError).code, (err as ServiceError).details];
  }
  return "resolved";
};
