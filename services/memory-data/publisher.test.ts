import { expect, test } from "bun:test";
import type { JetStreamClient } from "nats";
import { ServiceError } from "../contract/errors";
import type { Bus } from "../kit/bus";
import type { Logger } from "../kit/log";
import { MEMORY_EVENTS_MESSAGE_CHARS, memoryEventsOf, snapshotOfMemory, type MemoryEvent } from "../contract/events";
import { memoryFixture } from "../contract/memory.fixture";
import { memoryEventFixture } from "../contract/event.fixture";
import { createChangePublisher, eventMessages } from "./publisher";
import { INDEX_SKIP_AFTER_UNAVAILABLE_MS } from "./index-writes";

const memory = snapshotOfMemory(
  memoryFixture({ id: "m1", tags: [{ id: "t1", name: "n", color: null }], entity_ids: ["e1"] }),
  4,
);

function harness(indexError?: ServiceError, clock = { now: 0 }, publishFailures = 0) {
  const published: { subject: string; body: any; msgID: string }[] = [];
  const attempts: { msgID: string; timeout: number }[] = [];
  const indexed: unknown[] = [];
  const warnings: string[] = [];
  const js = {
    publish: async (subject: string, data: Uint8Array, opts: { msgID: string; timeout: number }) => {
      attempts.push({ msgID: opts.msgID, timeout: opts.timeout });
      if (attempts.length <= publishFailures) throw new Error("TIMEOUT");
      published.push({ subject, body: JSON.parse(new TextDecoder().decode(data)), msgID: opts.msgID });
    },
  } as unknown as JetStreamClient;
  const bus = {
    call: async (_op: unknown, input: unknown, callCtx: unknown, opts: unknown) => {
      indexed.push({ input, callCtx, opts });
      if (indexError) throw indexError;
      return { indexed: 1, removed: 0 };
    },
  } as unknown as Bus;
  const log = { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) } as unknown as Logger;
  const ctx = {
    caller: { tenant: "acme", env: "live" as const, keyId: "k", scopes: ["*" as const] },
    requestId: "r1",
    log,
  };
  return { publisher: createChangePublisher(js, bus, () => clock.now), published, attempts, indexed, warnings, ctx };
}

test("a publish the stream did not acknowledge goes again with the same msgID, each attempt within 1 s", async () => {
  const h = harness(undefined, { now: 0 }, 2);
  await h.publisher.committed(h.ctx, [{ type: "created", memory }]);
  expect(h.attempts.map((a) => a.msgID)).toEqual(["m1:4", "m1:4", "m1:4"]);
  expect(h.attempts.every((a) => a.timeout > 0 && a.timeout <= 1000)).toBe(true);
  expect(h.published.map((p) => p.msgID)).toEqual(["m1:4"]);
  expect(h.warnings).toEqual([]);
});

test(
  "events carry tenant, version, changed fields and a `<id>:<version>` msgID; " +
    "the index gets upserts and deletes in one call with the caller",
  async () => {
    const h = harness();
    await h.publisher.committed(h.ctx, [
      { type: "updated", memory, changed: ["tier"] },
      { type: "deleted", id: "m2", version: 7, reason: "expired" },
    ]);
    expect(
      h.published.map((p) => [p.subject, p.msgID, p.body.tenant, p.body.env, p.body.version, p.body.changed]),
    ).toEqual([
      ["events.memory.updated", "m1:4", "acme", "live", 4, ["tier"]],
      ["events.memory.deleted", "m2:7", "acme", "live", 7, []],
    ]);
    expect(h.published[0]!.body.memory).toMatchObject({ id: "m1", tag_ids: ["t1"], entity_ids: ["e1"], version: 4 });
    expect(h.published[1]!.body.memory).toBeNull();
    expect(h.published[1]!.body.reason).toBe("expired");
    expect(h.indexed).toEqual([
      {
        input: { upserts: [h.published[0]!.body.memory], deletes: [{ id: "m2", version: 7 }] },
        callCtx: { requestId: "r1", caller: h.ctx.caller },
        opts: { timeoutMs: 3000 },
      },
    ]);
  },
);

test("search down (503/504): the write still succeeds with a warning; the event is still published", async () => {
  for (const err of [new ServiceError("SERVICE_UNAVAILABLE", "down"), new ServiceError("TIMEOUT", "slow")]) {
    const h = harness(err);
    await h.publisher.committed(h.ctx, [{ type: "created", memory }]);
    expect(h.published.length).toBe(1);
    expect(h.warnings).toEqual(["search index not updated now; events will converge it"]);
  }
});

test("no search replica (503): writes skip indexing a while, then retry; a slow one (504) is not skipped", async () => {
  const clock = { now: 1000 };
  const h = harness(new ServiceError("SERVICE_UNAVAILABLE", "down"), clock);
  await h.publisher.committed(h.ctx, [{ type: "created", memory }]);
  expect(h.indexed.length).toBe(1);
  clock.now += INDEX_SKIP_AFTER_UNAVAILABLE_MS - 1;
  await h.publisher.committed(h.ctx, [{ type: "created", memory }]);
  expect(h.indexed.length).toBe(1); // skipped; the event is still published
  expect(h.published.length).toBe(2);
  clock.now += 2;
  await h.publisher.committed(h.ctx, [{ type: "created", memory }]);
  expect(h.indexed.length).toBe(2);

  const slow = harness(new ServiceError("TIMEOUT", "slow"), clock);
  await slow.publisher.committed(slow.ctx, [{ type: "created", memory }]);
  await slow.publisher.committed(slow.ctx, [{ type: "created", memory }]);
  expect(slow.indexed.length).toBe(2);
});

const created = (id: string, content = "x") =>
  memoryEventFixture(id, { memory: { ...memory, id, content, version: 1 } });

test("a write's run of events of one type goes as one message: an array named by first event and count", async () => {
  const h = harness();
  await h.publisher.committed(
    h.ctx,
    ["a", "b", "c"].map((id) => ({ type: "created" as const, memory: { ...memory, id, version: 1 } })),
  );
  expect(h.published.map((p) => [p.subject, p.msgID])).toEqual([["events.memory.created", "a:1+3"]]);
  expect(h.published[0]!.body.map((e: MemoryEvent) => [e.memory_id, e.tenant])).toEqual([
    ["a", "acme"],
    ["b", "acme"],
    ["c", "acme"],
  ]);
});

test("event messages keep the write's order: a change of type starts a new message", () => {
  const deleted: MemoryEvent = { ...created("d"), type: "deleted", version: 2, memory: null, reason: "deleted" };
  const messages = eventMessages([created("a"), created("b"), deleted, created("c")]);
  expect(messages.map((m) => [m.type, m.msgID])).toEqual([
    ["created", "a:1+2"],
    ["deleted", "d:2"],
    ["created", "c:1"],
  ]);
  expect(messages.flatMap((m) => memoryEventsOf(m.data).map((e) => e.memory_id))).toEqual(["a", "b", "d", "c"]);
});

test("an event message stays within its size: a long run is split, an event larger than it goes alone", () => {
  const big = "é".repeat(MEMORY_EVENTS_MESSAGE_CHARS / 3);
  const run = ["a", "b", "c", "d", "e"].map((id) => created(id, big));
  const huge = created("h", "x".repeat(MEMORY_EVENTS_MESSAGE_CHARS + 1));
  const messages = eventMessages([...run, huge, created("z")]);
  expect(messages.map((m) => m.msgID)).toEqual(["a:1+2", "c:1+2", "e:1", "h:1", "z:1"]);
  for (const m of messages.filter((m) => m.msgID !== "h:1")) {
    expect(m.data.length).toBeLessThanOrEqual(3 * MEMORY_EVENTS_MESSAGE_CHARS);
    expect(new TextDecoder().decode(m.data).length).toBeLessThanOrEqual(MEMORY_EVENTS_MESSAGE_CHARS);
  }
  expect(messages.flatMap((m) => memoryEventsOf(m.data).map((e) => e.memory_id))).toEqual([
    "a",
    "b",
    "c",
    "d",
    "e",
    "h",
    "z",
  ]);
});
