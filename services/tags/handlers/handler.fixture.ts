import type Redis from "ioredis";
import { keyspace } from "../../memory-data/keyspace";
import type { Space } from "../../kit/space";
import { createLogger } from "../../kit/log";
import { requireCaller, type HandlerContext } from "../../kit/handler";
import type { NotifyTagsChanged } from "../notify";

/**
 * Service-level test support for the tags service: callers, and a notifier that records what it was
 * told. The tests run on a private real Redis (scripts/stack/redis.fixture.ts), no mocks. Memories
 * belong to the memories service; these tests write memory hashes directly ONLY because they test
 * the tags service alone.
 */

/** TEST ONLY: writes a memory hash as the memories service would (fields per memory-data/keyspace.ts). */
export async function writeMemoryHashForTests(
  redis: Redis,
  space: Space,
  opts: { id?: string; createdAt?: number; content?: string } = {},
): Promise<string> {
  const id = opts.id ?? crypto.randomUUID();
  const at = opts.createdAt ?? Date.now();
  await redis.hset(keyspace(space).memory(id), {
    content: opts.content ?? `memory ${id}`,
    content_type: "text",
    tier: "medium",
    memory_nature: "episodic",
    metadata: JSON.stringify({ source: "test" }),
    created_at: String(at),
    updated_at: String(at),
    v: "1",
  });
  return id;
}

export const quietLog = createLogger({ test: "tags" }, "error");

export function ctxFor(space: Space): HandlerContext {
  return {
    caller: { tenant: space.tenant, env: space.env, keyId: "k", scopes: ["*"] },
    requestId: crypto.randomUUID(),
    log: quietLog,
  };
}

export const newSpace = (env: Space["env"] = "live"): Space => ({ tenant: `t${crypto.randomUUID().slice(0, 8)}`, env });

export function recordingNotifier() {
  const calls: { tenant: string; env: string; memoryIds: string[] }[] = [];
  const notify: NotifyTagsChanged = async (ctx, memoryIds) => {
    const caller = requireCaller(ctx);
    calls.push({ tenant: caller.tenant, env: caller.env, memoryIds: [...memoryIds] });
  };
  return { calls, notify };
}

/** The domain error a promise rejects with, as plain fields (fails the test if it resolves). */
export async function errorOf(
  p: Promise<unknown> | unknown,
): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: string; message: string; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
  throw new Error("expected a rejection");
}
