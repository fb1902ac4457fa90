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
import type { Identity } from "../http/auth";
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
