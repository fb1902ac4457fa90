import { beforeAll, expect, test } from "bun:test";
import type Redis from "ioredis";
import type { JetStreamClient } from "nats";
import { ServiceError } from "../contract/errors";
import { INDEX_WAIT_MS } from "../contract/search-index";
import type { MemoryEvent } from "../contract/events";
import type { Bus } from "../kit/bus";
import { keyspace } from "../memory-data/keyspace";
import { createTagStore, type TagStore } from "./store";
import { createChangePublisher } from "../memory-data/publisher";
import { createNotifier } from "./notify";
import { privateRedis } from "../../scripts/stack/redis.fixture";
import { ctxFor, newSpace, writeMemoryHashForTests } from "./handlers/handler.fixture";

// The transport is faked here (what was published / called is the subject of the test);
// Redis is real. The e2e tests run the real JetStream and NATS.
const db = privateRedis("tags-notify");
let redis: Redis;
beforeAll(async () => {
  redis = await db.connect();
});

function fakes(indexFails = false) {
  const published: { subject: string; event: MemoryEvent; msgID?: string }[] = [];
  const calls: { input: unknown; ctx: unknown; opts: unknown }[] = [];
  const js = {
    publish: async (subject: string, data: Uint8Array, opts?: { msgID?: string }) => {
      published.push({ subject, event: JSON.parse(new TextDecoder().decode(data)), msgID: opts?.msgID });
      return { duplicate: false, seq: published.length, stream: "EVENTS" };
    },
  } as unknown as JetStreamClient;
  const bus: Bus = {
    call: (async (_op: unknown, input: unknown, ctx: unknown, opts: unknown) => {
      calls.push({ input, ctx, opts });
      if (indexFails) throw new ServiceError("SERVICE_UNAVAILABLE", "The service is unavailable, retry shortly");
      return { indexed: 1, removed: 0 };
    }) as Bus["call"],
    callRaw: () => Promise.reject(new Error("not used by notify")),
    connected: () => true,
  };
  return { js, bus, published, calls };
}

const notifier = (store: TagStore, f: ReturnType<typeof fakes>) =>
  createNotifier({ store, changes: createChangePublisher(f.js, f.bus) });

test("publishes tags_changed with a snapshot and msgID <id>:<version>, and waits for the index", async () => {
  const space = newSpace("test");
  const store = createTagStore(redis);
  const ks = keyspace(space);
  const m = await writeMemoryHashForTests(redis, space, { createdAt: 5000, content: "héllo" });
  await redis.hset(ks.memory(m), { parent: "", external_id: "ext-1", v: "7" });
  await redis.sadd(ks.memoryTags(m), "t2", "t1");
  await redis.sadd(ks.memoryEntities(m), "e1");
  const f = fakes();
  const caller = ctxFor(space).caller!;
  await notifier(store, f)({ ...ctxFor(space), requestId: "req-1" }, [m, crypto.randomUUID()]);

  expect(f.published).toHaveLength(1);
  const { subject, event, msgID } = f.published[0]!;
  expect(subject).toBe("events.memory.tags_changed");
  expect(msgID).toBe(`${m}:7`);
  const snapshot = {
    id: m,
    content: "héllo",
    content_type: "text",
    tier: "medium",
    memory_nature: "episodic",
    parent_memory_id: null,
    external_id: "ext-1",
    metadata: { source: "test" },
    tag_ids: ["t1", "t2"],
    entity_ids: ["e1"],
    created_at: new Date(5000).toISOString(),
    updated_at: new Date(5000).toISOString(),
    occurred_at: new Date(5000).toISOString(),
    expires_at: null,
    supersedes: null,
    superseded_by: null,
    valid_to: null,
    version: 7,
  };
  expect(event).toEqual({
    type: "tags_changed",
    tenant: space.tenant,
    env: "test",
    memory_id: m,
    version: 7,
    changed: [],
    memory: snapshot,
    at: expect.any(String),
  });
  expect(f.calls).toEqual([
    {
      input: { upserts: [snapshot], deletes: [] },
      ctx: { requestId: "req-1", caller },
      opts: { timeoutMs: INDEX_WAIT_MS },
    },
  ]);
});

test("a failing index call does not fail the write", async () => {
  const space = newSpace();
  const m = await writeMemoryHashForTests(redis, space);
  const f = fakes(true);
  await notifier(createTagStore(redis), f)(ctxFor(space), [m]);
  expect(f.calls).toHaveLength(1);
  expect(f.published).toHaveLength(1);
});

test("nothing is sent for memories that no longer exist", async () => {
  const f = fakes();
  const space = newSpace();
  await notifier(createTagStore(redis), f)(ctxFor(space), [crypto.randomUUID()]);
  expect(f.published).toHaveLength(0);
  expect(f.calls).toHaveLength(0);
});
