import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type NatsConnection } from "nats";
import { startNats, type NatsProcess } from "../../scripts/stack/infra";
import { KEY_REVOKED_SUBJECT, revokedNotice } from "../../services/contract/keys";
import { memoryEventFixture } from "../../services/contract/event.fixture";
import { createLogger } from "../../services/kit/log";
import { encodeJson } from "../../services/kit/wire";
import type { Identity } from "../http/auth/identity";
import { createEventHub } from "./events";

/** The event hub over a real NATS: a stream whose key is revoked delivers nothing it had queued. */
let dir: string;
let nats: NatsProcess;
let nc: NatsConnection;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "event-hub-"));
  nats = await startNats({ dataDir: dir });
  nc = await connect({ servers: nats.url });
});

afterAll(async () => {
  await nc.close();
  await nats.stop();
  rmSync(dir, { recursive: true, force: true });
});

const identity: Identity = {
  caller: { tenant: "acme", env: "live", keyId: "k1", scopes: ["*"] },
  label: { name: "k1", prefix: "svc_live_k1" },
  limits: { perMinute: 100, perDay: 0 },
  expiresAt: null,
  hash: "h".repeat(64),
};
const event = (id: string) => memoryEventFixture(id, { at: new Date().toISOString() });

/** A hub whose key checks find the identity unchanged, and its stream of the identity's events started. */
async function startedStream() {
  const hub = createEventHub(
    nc,
    createLogger({}, "error"),
    () => false,
    async () => identity,
  );
  await nc.flush();
  const it = hub.stream(identity, {}, "memories:read")[Symbol.asyncIterator]();
  const first = it.next(); // starts the stream
  await Bun.sleep(20);
  return { hub, it, first };
}

test("events queued for a slow client are dropped when its key is revoked; the stream ends", async () => {
  const { hub, it, first } = await startedStream();
  for (const id of ["m1", "m2", "m3"]) nc.publish(`events.memory.created`, encodeJson(event(id)));
  await nc.flush();
  expect((await first).value?.memory_id).toBe("m1");
  nc.publish(KEY_REVOKED_SUBJECT, encodeJson(revokedNotice({ id: "k1", hash: "h".repeat(64) })));
  await nc.flush();
  expect(await it.next()).toEqual({ done: true, value: undefined }); // not m2, m3
  expect(hub.listenerCount()).toBe(0);
});

test("a message carrying several events (a batch's) reaches the subscriber as each event, in order", async () => {
  const { it, first } = await startedStream();
  nc.publish(`events.memory.created`, encodeJson([event("b1"), event("b2"), { ...event("x"), tenant: "other" }]));
  nc.publish(`events.memory.created`, encodeJson(event("b3")));
  await nc.flush();
  const got = [(await first).value?.memory_id];
  for (let i = 0; i < 2; i++) got.push((await it.next()).value?.memory_id);
  expect(got).toEqual(["b1", "b2", "b3"]);
  await it.return?.();
});

test("a restricted stream never names a memory outside: links read null, an update of only them goes", async () => {
  const restricted: Identity = {
    ...identity,
    caller: { ...identity.caller, token: { id: "t1", restrict: { metadata: { user_id: "a" } } } },
  };
  const outside = new Set(["b1", "b2"]);
  const hub = createEventHub(
    nc,
    createLogger({}, "error"),
    () => false,
    async () => identity,
    async (_caller, id) => !outside.has(id),
  );
  await nc.flush();
  const it = hub.stream(restricted, {}, "memories:read")[Symbol.asyncIterator]();
  const first = it.next();
  await Bun.sleep(20);
  const snapshot = {
    id: "a1",
    content: "mine",
    content_type: "text",
    tier: "medium",
    memory_nature: "episodic",
    parent_memory_id: "b1",
    external_id: null,
    metadata: { user_id: "a" },
    tag_ids: [],
    entity_ids: [],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    supersedes: "a0",
    superseded_by: "b2",
    valid_to: "2026-01-02T00:00:00.000Z",
    version: 2,
  };
  const superseded = { ...event("a1"), type: "updated" as const, changed: ["superseded_by", "valid_to"] };
  nc.publish("events.memory.updated", encodeJson({ ...superseded, memory: snapshot }));
  nc.publish("events.memory.created", encodeJson({ ...event("a1"), memory: snapshot }));
  await nc.flush();
  const got = (await first).value!;
  expect(got.type).toBe("created");
  expect(got.memory).toMatchObject({ parent_memory_id: null, supersedes: "a0", superseded_by: null, valid_to: null });
  expect(JSON.stringify(got)).not.toContain("b1");
  expect(JSON.stringify(got)).not.toContain("b2");
  await it.return?.();
});
